import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { routeKey, routeList } from '../../shared/routes';
import { createDispatcher, createJobDispatcher, createStreamDispatcher, topicMatches } from './dispatch';

const context = {} as Context;
const event = (key: string) => ({ routeKey: key, rawPath: key.split(' ')[1] }) as APIGatewayProxyEventV2;
const ok = (body: string) => vi.fn(async () => ({ statusCode: 200, body }));

describe('createDispatcher', () => {
  it('calls the handler of the event route key with the event and context', async () => {
    const settings = ok('settings');
    const announcement = ok('announcement');
    const dispatch = createDispatcher({ 'GET /api/v1/user/settings': settings, 'POST /api/v1/announcement': announcement });

    const e = event('GET /api/v1/user/settings');
    await expect(dispatch(e, context)).resolves.toEqual({ statusCode: 200, body: 'settings' });
    expect(settings).toHaveBeenCalledWith(e, context);
    expect(announcement).not.toHaveBeenCalled();
  });

  it('answers 404 in the API error shape for an unknown route key', async () => {
    const dispatch = createDispatcher({ 'GET /api/v1/user/settings': ok('x') });
    for (const key of ['GET /api/v1/nope', 'POST /api/v1/user/settings', '$default']) {
      const res = (await dispatch(event(key), context)) as APIGatewayProxyStructuredResultV2;
      expect(res.statusCode).toBe(404);
      expect(res.headers?.['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body ?? '')).toEqual({ success: false, message: 'NotFound', errors: 'NotFound' });
    }
  });

  it('keys handlers exactly as routeKey() formats manifest routes', async () => {
    const handlers = Object.fromEntries(routeList.map((r) => [routeKey(r), ok(r.operationId)]));
    const dispatch = createDispatcher(handlers);
    for (const r of routeList) {
      await expect(dispatch(event(routeKey(r)), context)).resolves.toMatchObject({ body: r.operationId });
    }
  });

  it('lets handler errors propagate (the handler maps its own errors)', async () => {
    const dispatch = createDispatcher({ 'GET /x': async () => { throw new Error('boom'); } });
    await expect(dispatch(event('GET /x'), context)).rejects.toThrow('boom');
  });
});

describe('topicMatches', () => {
  it.each([
    ['trackers/+/telemetry', 'trackers/356307042441013/telemetry', true],
    ['trackers/+/telemetry', 'trackers/356307042441013/ack', false],
    ['trackers/+/telemetry', 'trackers/356307042441013/telemetry/x', false],
    ['+/data', '356307042441013/data', true],
    ['+/data', 'trackers/356307042441013/data', false],
    ['live/#', 'live/a/units/1', true],
    ['live/#', 'other/a', false],
  ])('%s matches %s: %s', (filter, topic, expected) => {
    expect(topicMatches(filter, topic)).toBe(expected);
  });
});

describe('createStreamDispatcher', () => {
  const record = (topic: string, n = 0) => ({ kinesis: { data: Buffer.from(JSON.stringify({ topic, n })).toString('base64') } });

  it('hands a batch handler its records at once and in order, the others one by one', async () => {
    const batches: unknown[] = [];
    const singles: unknown[] = [];
    const telemetry = Object.assign(async (events: Array<{ topic: string }>) => void batches.push(events), { acceptsBatches: true as const });
    const ack = async (event: { topic: string }) => void singles.push(event);
    const dispatch = createStreamDispatcher([
      { topicFilter: 'trackers/+/telemetry', handler: telemetry },
      { topicFilter: '+/data', handler: telemetry },
      { topicFilter: 'trackers/+/ack', handler: ack },
    ]);
    await dispatch({ Records: [record('trackers/1/telemetry', 1), record('trackers/1/ack', 2), record('1/data', 3), record('trackers/1/ack', 4)] }, context);
    expect(batches).toEqual([[{ topic: 'trackers/1/telemetry', n: 1 }, { topic: '1/data', n: 3 }]]);
    expect(singles).toEqual([{ topic: 'trackers/1/ack', n: 2 }, { topic: 'trackers/1/ack', n: 4 }]);
  });

  it('routes a record whose topic still carries the Basic Ingest prefix as the plain topic', async () => {
    const seen: unknown[] = [];
    const dispatch = createStreamDispatcher([
      { topicFilter: 'trackers/+/telemetry', handler: async (event: { topic: string }) => void seen.push(['telemetry', event]) },
      { topicFilter: 'trackers/+/ack', handler: async (event: { topic: string }) => void seen.push(['ack', event]) },
    ]);
    await dispatch({ Records: [record('$aws/rules/Stack_trackerTelemetry/trackers/1/telemetry', 1), record('trackers/1/ack', 2)] }, context);
    expect(seen).toEqual([
      ['telemetry', { topic: '$aws/rules/Stack_trackerTelemetry/trackers/1/telemetry', n: 1 }],
      ['ack', { topic: 'trackers/1/ack', n: 2 }],
    ]);
    await expect(dispatch({ Records: [record('$aws/rules/Stack_trackerTelemetry')] }, context)).rejects.toThrow(/No ingest handler/);
  });

  it('fails the batch for a topic no rule covers, so it is retried and then dead-lettered', async () => {
    const dispatch = createStreamDispatcher([{ topicFilter: 'trackers/+/ack', handler: async () => undefined }]);
    await expect(dispatch({ Records: [record('x/y/z')] }, context)).rejects.toThrow(/No ingest handler/);
  });
});

describe('createJobDispatcher', () => {
  it('routes by job name and throws for an unknown job', async () => {
    const run = vi.fn(async () => 'done');
    const dispatch = createJobDispatcher({ 'command-timeouts': run });
    await expect(dispatch({ job: 'command-timeouts' }, context)).resolves.toBe('done');
    await expect(dispatch({ job: 'other' }, context)).rejects.toThrow(/No job handler/);
  });
});
