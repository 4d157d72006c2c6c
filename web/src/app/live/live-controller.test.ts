/**
 * The live controller with its real MQTT transport against the embedded runtime: credentials from
 * GET /live/connection, MQTT over the runtime's WebSocket listener, a tracker publishing over MQTT
 * whose position comes back through ingest as a live message. Only the credential fetch is the
 * test's own (the browser's API client needs a page), and the backoff is shortened.
 */
import mqtt from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveMessage } from '../../../../shared/schemas/live';
import { liveConnectionSchema, type LiveConnection } from '../../../../shared/schemas/tracking';
import type { EmbeddedRuntime } from '../../../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoUsers } from '../../../../infra/local/seed';
import { startRuntime } from '../../../../test/support/runtime';
import { loginAs } from '../../../../test/support/sessions';
import { createLiveController, type LiveController, type LiveStatus, type LiveTransport } from './live-controller';
import { openMqttLink, parseLiveMessage } from './mqtt-transport';

let rt: EmbeddedRuntime;
let tracker: mqtt.MqttClient;
const imei = demoImei(0);

beforeAll(async () => {
  rt = await startRuntime();
  tracker = await mqtt.connectAsync(rt.mqttUrl, { clientId: imei, reconnectPeriod: 0, connectTimeout: 5000 });
});
afterAll(async () => {
  await tracker?.endAsync();
  await rt?.stop();
});

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let ts = Date.now() - 60_000;
/** A tracker reports; ingest stores it and publishes the new state on the live channel. */
async function report(lat: number): Promise<number> {
  ts += 1000;
  await tracker.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts, lat, lon: 18.06, spd: 42, ign: true, sat: 9 }), { qos: 1 });
  return ts;
}

interface Harness {
  controller: LiveController;
  connections: LiveConnection[];
  /** Credential fetches, failed ones included. */
  tries: () => number;
  closes: () => number;
  statuses: LiveStatus[];
  messages: LiveMessage[];
  setToken(token: string): void;
}

const harnesses: Array<() => void> = [];
afterEach(() => {
  for (const release of harnesses.splice(0)) release();
});

async function harness(username: string): Promise<Harness> {
  let { token } = await loginAs(username, DEMO_PASSWORD);
  const tokenListeners = new Set<() => void>();
  const connections: LiveConnection[] = [];
  let closed = 0;
  let tries = 0;
  const transport: LiveTransport = {
    async fetchConnection() {
      tries++;
      const res = await fetch(`${rt.url}/api/v1/user/live/connection`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { data: unknown };
      const connection = liveConnectionSchema.parse(body.data);
      connections.push(connection);
      return connection;
    },
    open(connection, events) {
      const link = openMqttLink(connection, events);
      return {
        close() {
          closed++;
          link.close();
        },
      };
    },
    parse: parseLiveMessage,
  };
  const controller = createLiveController({
    loadTransport: async () => transport,
    token: () => token,
    onTokenChange(listener) {
      tokenListeners.add(listener);
      return () => tokenListeners.delete(listener);
    },
    reconnectDelay: () => 50,
    lingerMs: 0,
  });
  const statuses: LiveStatus[] = [controller.getStatus()];
  const messages: LiveMessage[] = [];
  harnesses.push(controller.subscribeStatus(() => statuses.push(controller.getStatus())));
  return {
    controller,
    connections,
    tries: () => tries,
    closes: () => closed,
    statuses,
    messages,
    setToken(next) {
      token = next;
      for (const listener of tokenListeners) listener();
    },
  };
}

const positionsAt = (messages: LiveMessage[], lat: number) => messages.filter((m) => m.type === 'position' && m.imei === imei && m.lat === lat);

describe('live controller', () => {
  it('connects for its first user, delivers parsed positions of the granted units, and disconnects after the last', async () => {
    const h = await harness(demoUsers.user.username);
    expect(h.controller.getStatus()).toBe('connecting');
    const releaseA = h.controller.listen((m) => h.messages.push(m));
    const releaseB = h.controller.acquire();
    await until(() => h.controller.getStatus() === 'online', 'online');
    // Two users, one connection, subscribed to the user's own filter, where their granted units are published.
    expect(h.connections).toHaveLength(1);
    expect(h.connections[0]?.topics).toEqual([expect.stringMatching(/^live\/[^/]+\/users\/[^/]+\/units\/\+$/)]);

    const sent = await report(59.3301);
    await until(() => positionsAt(h.messages, 59.3301).length === 1, 'the live position');
    expect(positionsAt(h.messages, 59.3301)[0]).toMatchObject({ type: 'position', imei, ts: new Date(sent).toISOString(), speed: 42, ignition: true });

    releaseA();
    expect(h.closes()).toBe(0);
    releaseB();
    await until(() => h.closes() === 1, 'the disconnect');
    // A listener that left hears nothing more.
    await report(59.3302);
    await new Promise((r) => setTimeout(r, 300));
    expect(positionsAt(h.messages, 59.3302)).toHaveLength(0);
  });

  it('goes offline when the connection drops, reconnects with fresh credentials and resubscribes', async () => {
    const h = await harness(demoUsers.admin.username);
    harnesses.push(h.controller.listen((m) => h.messages.push(m)));
    await until(() => h.controller.getStatus() === 'online', 'online');
    const first = h.connections[0] as LiveConnection;

    // Another connection under the same client id makes the broker drop the controller's one.
    const usurper = await mqtt.connectAsync(rt.wsUrl, {
      clientId: first.clientId,
      username: first.username,
      password: first.password,
      reconnectPeriod: 0,
    });
    try {
      await until(() => h.statuses.includes('offline'), 'offline');
      await until(() => h.controller.getStatus() === 'online', 'back online');
    } finally {
      await usurper.endAsync();
    }
    expect(h.statuses).toEqual(['connecting', 'online', 'offline', 'online']);
    expect(h.connections).toHaveLength(2);
    expect(h.connections[1]?.clientId).not.toBe(first.clientId);

    await report(59.3303);
    await until(() => positionsAt(h.messages, 59.3303).length === 1, 'a live position after the reconnect');
  });

  it('keeps retrying with backoff while the credentials cannot be fetched', async () => {
    const h = await harness(demoUsers.admin.username);
    h.setToken('not-a-token');
    harnesses.push(h.controller.acquire());
    await until(() => h.tries() >= 3, 'three attempts');
    expect(h.controller.getStatus()).toBe('offline');
    expect(h.connections).toHaveLength(0);
    // A valid token again: the next attempt connects.
    h.setToken((await loginAs(demoUsers.admin.username, DEMO_PASSWORD)).token);
    await until(() => h.controller.getStatus() === 'online', 'online');
  });

  it('moves to a connection with the new token when the session renews it, without a drop', async () => {
    const h = await harness(demoUsers.admin.username);
    harnesses.push(h.controller.listen((m) => h.messages.push(m)));
    await until(() => h.controller.getStatus() === 'online', 'online');

    const renewed = await loginAs(demoUsers.admin.username, DEMO_PASSWORD);
    h.setToken(renewed.token);
    await until(() => h.connections.length === 2, 'new credentials');
    expect(h.connections[1]?.password).toBe(renewed.token);
    // The old connection goes once the new one is subscribed.
    await until(() => h.closes() === 1, 'the old connection closed');

    await report(59.3304);
    await until(() => positionsAt(h.messages, 59.3304).length === 1, 'a live position on the new connection');
    expect(h.statuses).toEqual(['connecting', 'online']);
  });
});

describe('parseLiveMessage', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('ignores what is not a live message', () => {
    expect(parseLiveMessage(bytes('not json'))).toBeNull();
    expect(parseLiveMessage(bytes('{"type":"position","imei":"1"}'))).toBeNull();
    expect(parseLiveMessage(bytes('{"type":"weather"}'))).toBeNull();
  });

  it('reads a position', () => {
    const state = {
      ts: '2025-01-01T10:00:00.000Z',
      lat: 59.3,
      lon: 18.1,
      speed: 12,
      heading: 90,
      alt: null,
      ignition: true,
      movement: true,
      extVolts: 12.6,
      batVolts: 4.1,
      din: {},
      dout: { '1': false },
      odometer: null,
      engineSeconds: null,
      lastSeen: '2025-01-01T10:00:01.000Z',
    };
    expect(parseLiveMessage(bytes(JSON.stringify({ type: 'position', imei, ...state })))).toEqual({ type: 'position', imei, ...state });
  });
});
