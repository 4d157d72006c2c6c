/**
 * Black-box tests of the embedded runtime over HTTP and MQTT: health, docs, the middleware's
 * answers (422 shape, 401, 404), the seeded demo account and the broker's tracker permissions.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../functions/platform/db';
import { sessionItemId } from '../../functions/domain/session/schema';
import { DEMO_PASSWORD, demoImei, demoUsers, seedDemo } from '../../infra/local/seed';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { apiFetch } from '../support/http';
import { startRuntime } from '../support/runtime';
import { loginAs } from '../support/sessions';

let rt: EmbeddedRuntime;

beforeAll(async () => {
  rt = await startRuntime();
});
afterAll(async () => {
  await rt?.stop();
});

const api = (path: string, init: RequestInit = {}) => apiFetch(`${rt.url}${path}`, init);
const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  api(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('embedded runtime', () => {
  it('reports health only when every part is up', async () => {
    const res = await api('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', parts: { dynamodb: true, mqtt: true, http: true } });
  });

  it('serves the OpenAPI document generated from the manifest', async () => {
    const doc = (await (await api('/api/docs')).json()) as { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/v1/user/settings']?.['get']?.operationId).toBe('getSettings');
    expect(doc.paths['/api/v1/announcement']?.['post']).toBeDefined();
  });

  it('answers an unknown API path as API Gateway does', async () => {
    const res = await api('/api/v1/no-such-route');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not Found' });
  });

  it('seeds the demo account once', async () => {
    expect(rt.seeded).toBe(true);
    expect((await seedDemo()).seeded).toBe(false);
  });
});

describe('HTTP middleware through a public route', () => {
  it('answers the announcement of a brand and language, null when there is none', async () => {
    let res = await postJson('/api/v1/announcement', { lang: 'sv', subsiteID: 3 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, data: { text: null } });

    await dynamo().send(new PutCommand({ TableName: tableName('announcements'), Item: { subsiteId: '3', lang: 'sv', text: 'Underhåll i natt' } }));
    res = await postJson('/api/v1/announcement', { lang: 'sv', subsiteID: '3' });
    expect(await res.json()).toEqual({ success: true, data: { text: 'Underhåll i natt' } });
    res = await postJson('/api/v1/announcement', { lang: 'en', subsiteID: 3 });
    expect(await res.json()).toEqual({ success: true, data: { text: null } });
    await dynamo().send(new DeleteCommand({ TableName: tableName('announcements'), Key: { subsiteId: '3', lang: 'sv' } }));
  });

  it('rejects bad input with 422 and message keys per field', async () => {
    const res = await postJson('/api/v1/announcement', { lang: 'de', subsiteID: 9 });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      success: false,
      message: 'ValidationFailed',
      errors: { lang: ['InvalidValue'], subsiteID: ['InvalidSubsite'] },
    });
  });

  it('rejects malformed JSON and a bad TimeZone header without a stack trace', async () => {
    let res = await api('/api/v1/announcement', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"lang":' });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ errors: { body: ['InvalidJson'] } });

    res = await postJson('/api/v1/announcement', {}, { TimeZone: 'Mars/Olympus' });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ errors: { TimeZone: ['InvalidTimeZone'] } });
  });
});

describe('member routes', () => {
  it('refuses a missing, malformed or forged token with the 401 body of docs/api.md', async () => {
    for (const auth of [undefined, 'Bearer nonsense', 'Basic abc', `Bearer ${'x'.repeat(40)}.${'y'.repeat(40)}.z`]) {
      const res = await api('/api/v1/user/settings', auth ? { headers: { authorization: auth } } : {});
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it("answers the caller's own settings with a valid session, and 401 once the session is gone", async () => {
    const { token, sessionId } = await loginAs(demoUsers.admin.username, DEMO_PASSWORD);
    let res = await api('/api/v1/user/settings', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      data: {
        enable_rfid: true,
        enable_car_booking: true,
        EnableSafeReturnHome: true,
        realtime_map: true,
        basic_only: false,
        is_admin: true,
        is_support: false,
        ParentID: null,
        // No feature profile: every feature of the account.
        profile_features: null,
        profile_reports: null,
        landing_page: 'default',
      },
    });

    const user = await loginAs(demoUsers.user.username, DEMO_PASSWORD);
    res = await api('/api/v1/user/settings', { headers: { authorization: `Bearer ${user.token}` } });
    expect(((await res.json()) as { data: { is_admin: boolean } }).data.is_admin).toBe(false);

    await dynamo().send(new DeleteCommand({ TableName: tableName('tokens'), Key: { id: sessionItemId(sessionId) } }));
    res = await api('/api/v1/user/settings', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
  });
});

describe('MQTT broker', () => {
  const connect = (url: string, clientId: string) =>
    new Promise<mqtt.MqttClient>((resolve, reject) => {
      const c = mqtt.connect(url, { clientId, reconnectPeriod: 0, connectTimeout: 5000 });
      c.once('connect', () => resolve(c));
      c.once('error', reject);
    });

  it('lets a tracker use only its own topics, as its IoT policy does', async () => {
    const imei = demoImei(0);
    const tracker = await connect(rt.mqttUrl, imei);
    const granted = await tracker.subscribeAsync(`trackers/${imei}/commands`, { qos: 1 });
    expect(granted[0]?.qos).toBe(1);
    await expect(tracker.subscribeAsync(`trackers/${demoImei(1)}/commands`, { qos: 1 })).rejects.toThrow(/Subscribe error/);
    // A refused subscription is answered, not punished: the connection stays usable.
    await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts: Date.now(), lat: 59.3, lon: 18.0 }), { qos: 1 });
    await tracker.endAsync();
  });

  it('refuses browser subscriptions over WebSocket until a token allows them', async () => {
    const browser = await connect(rt.wsUrl, 'browser-1');
    try {
      await expect(browser.subscribeAsync('live/any/units/+', { qos: 0 })).rejects.toThrow(/Subscribe error/);
    } finally {
      await browser.endAsync();
    }
  });
});
