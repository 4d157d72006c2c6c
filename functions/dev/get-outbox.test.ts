import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OutboxMessage } from '../../shared/schemas/system';
import { useLocalTables } from '../../test/support/local-tables';
import { getPorts } from '../platform/container';
import { handler } from './get-outbox';

beforeAll(async () => {
  await useLocalTables();
});

function event(query: Record<string, string>, sourceIp = '127.0.0.1'): APIGatewayProxyEventV2 {
  const rawQueryString = new URLSearchParams(query).toString();
  return {
    version: '2.0',
    routeKey: 'GET /api/dev/outbox',
    rawPath: '/api/dev/outbox',
    rawQueryString,
    headers: {},
    queryStringParameters: Object.keys(query).length ? query : undefined,
    requestContext: { requestId: 't', http: { method: 'GET', path: '/api/dev/outbox', sourceIp } },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}

async function get(query: Record<string, string>, sourceIp?: string) {
  const result = (await handler(event(query, sourceIp), {} as Context)) as APIGatewayProxyStructuredResultV2;
  return { status: result.statusCode, body: JSON.parse(String(result.body)) as { success: boolean; data: OutboxMessage[]; errors?: unknown } };
}

describe('GET /api/dev/outbox', () => {
  beforeAll(async () => {
    const { mailer, sms, push } = getPorts();
    await mailer.send({ to: 'A@B.se', subject: 'Welcome', text: 'Hello Anna', html: '<p>Hello Anna</p>' });
    await sms.send({ to: '+46701234567', text: 'Your code is 123456' });
    await push.send({ to: 'push-id-1', title: 'Alarm', text: 'Unit left the zone', data: { imei: '356307042441013' } });
    await mailer.send({ to: 'a@b.se', subject: 'Your code', text: 'Code 654321', html: '<p>Code 654321</p>' });
    await mailer.send({ to: 'other@b.se', subject: 'Other', text: 'Not for Anna', html: '<p>x</p>' });
  });

  it('lists one recipient, newest first, e-mail addresses case-insensitive', async () => {
    const { status, body } = await get({ to: 'a@b.se' });
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data.map((m) => m.subject)).toEqual(['Your code', 'Welcome']);
    const [latest] = body.data;
    expect(latest).toMatchObject({ kind: 'email', to: 'a@b.se', text: 'Code 654321', html: '<p>Code 654321</p>' });
    expect(latest?.id).toEqual(expect.any(String));
    expect(new Date(latest?.sentAt ?? '').toISOString()).toBe(latest?.sentAt);
  });

  it('filters by kind', async () => {
    const sms = await get({ to: '+46701234567', kind: 'sms' });
    expect(sms.status).toBe(200);
    expect(sms.body.data).toEqual([expect.objectContaining({ kind: 'sms', to: '+46701234567', text: 'Your code is 123456' })]);
    expect(sms.body.data[0]?.subject).toBeUndefined();

    expect((await get({ to: 'a@b.se', kind: 'sms' })).body.data).toEqual([]);

    const push = await get({ kind: 'push' });
    expect(push.body.data).toEqual([expect.objectContaining({ kind: 'push', to: 'push-id-1', subject: 'Alarm', text: 'Unit left the zone' })]);
  });

  it('without a recipient merges every kind, newest first, cut to the limit', async () => {
    const all = await get({});
    expect(all.status).toBe(200);
    expect(all.body.data.map((m) => m.text)).toEqual([
      'Not for Anna',
      'Code 654321',
      'Unit left the zone',
      'Your code is 123456',
      'Hello Anna',
    ]);
    const two = await get({ limit: '2' });
    expect(two.body.data.map((m) => m.text)).toEqual(['Not for Anna', 'Code 654321']);
    const oneOfAnna = await get({ to: 'a@b.se', kind: 'email', limit: '1' });
    expect(oneOfAnna.body.data.map((m) => m.text)).toEqual(['Code 654321']);
  });

  it('answers 422 with field errors for a bad kind or limit', async () => {
    const bad = await get({ kind: 'fax' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ kind: [expect.any(String)] });
    const badLimit = await get({ limit: '0' });
    expect(badLimit.status).toBe(422);
    expect(badLimit.body.errors).toHaveProperty('limit');
  });

  it('answers this machine only, 403 to any other address', async () => {
    for (const ip of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect((await get({ to: 'a@b.se' }, ip)).status).toBe(200);
    for (const ip of ['192.168.1.20', '10.0.0.1', '::ffff:192.168.1.20', 'fe80::1', '']) {
      const answer = await get({ to: 'a@b.se' }, ip);
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ success: false, message: 'Forbidden', errors: 'Forbidden' });
    }
  });
});
