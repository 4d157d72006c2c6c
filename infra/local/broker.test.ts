/**
 * The rule bridge of the local broker: real MQTT trackers publish and the bridge hands on each
 * message as the IoT rules' SQL would output it (the tracker's permissions are
 * shared/mqtt-topics.ts's, tested there); stopping finishes what the broker already acknowledged.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { iotRules, type IotRuleEvent } from '../../shared/iot-rules';
import { imeiFrom } from '../../shared/validators/imei';
import { startLocalBroker, type LocalBroker } from './broker';

const IMEI = imeiFrom('35693812000001');
const OTHER = imeiFrom('35693812000002');
const bodyOf = (e: IotRuleEvent) => JSON.parse(Buffer.from(e.payload, 'base64').toString()) as { n: number };

let broker: LocalBroker | undefined;
let tracker: mqtt.MqttClient | undefined;

async function start(drain?: () => Promise<void>, stored?: () => Promise<void>) {
  const out: Array<{ rule: string; event: IotRuleEvent }> = [];
  broker = await startLocalBroker({
    port: 0,
    host: '127.0.0.1',
    rules: iotRules,
    onRuleOutput: async (rule, event) => {
      out.push({ rule: rule.name, event });
      await stored?.();
    },
    ...(drain ? { drain } : {}),
  });
  tracker = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { clientId: IMEI, reconnectPeriod: 0 });
  return out;
}

/** A broker that lets browsers subscribe to `live/acc-1/units/+`, with its WebSocket on an HTTP server of its own. */
async function startForBrowsers(refreshLive?: Parameters<typeof startLocalBroker>[0]['refreshLive']) {
  broker = await startLocalBroker({
    port: 0,
    host: '127.0.0.1',
    rules: iotRules,
    onRuleOutput: () => undefined,
    authorizeLiveSubscribe: async (_client, topic) => topic === 'live/acc-1/units/+',
    ...(refreshLive ? { refreshLive } : {}),
  });
  const server = createServer((_req, res) => res.writeHead(404).end());
  broker.attachWebSocket(server, '/mqtt');
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/mqtt`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

afterEach(async () => {
  await tracker?.endAsync();
  await broker?.stop();
  tracker = undefined;
  broker = undefined;
});

describe('rule bridge', () => {
  it("hands on each tracker message as the rule's output, in order, with the rule it came through", async () => {
    const out = await start();
    for (let n = 0; n < 5; n++) await tracker?.publishAsync(`trackers/${IMEI}/telemetry`, JSON.stringify({ n }), { qos: 1 });
    await tracker?.publishAsync(`trackers/${IMEI}/ack`, JSON.stringify({ n: 5 }), { qos: 1 });
    await tracker?.publishAsync(`${IMEI}/data`, JSON.stringify({ n: 6 }), { qos: 1 });
    await vi.waitFor(() => expect(out).toHaveLength(7));
    expect(out.map((o) => [o.rule, bodyOf(o.event).n])).toEqual([
      ['trackerTelemetry', 0],
      ['trackerTelemetry', 1],
      ['trackerTelemetry', 2],
      ['trackerTelemetry', 3],
      ['trackerTelemetry', 4],
      ['commandAck', 5],
      ['teltonikaData', 6],
    ]);
    expect(out.every((o) => o.event.imei === IMEI && o.event.receivedAt > 0 && o.event.topic.includes(IMEI))).toBe(true);
  });

  it('acknowledges a QoS 1 message only once its rule output is stored, and not at all when it could not be', async () => {
    let store: () => void = () => undefined;
    let fail = false;
    const out = await start(undefined, () => (fail ? Promise.reject(new Error('disk full')) : new Promise<void>((r) => (store = r))));
    let acked = false;
    const publish = tracker?.publishAsync(`trackers/${IMEI}/telemetry`, JSON.stringify({ n: 1 }), { qos: 1 }).then(() => (acked = true));
    await vi.waitFor(() => expect(out).toHaveLength(1));
    // The broker has the message and its output is being stored: no PUBACK yet.
    await new Promise((r) => setImmediate(r));
    expect(acked).toBe(false);
    store();
    await publish;
    expect(acked).toBe(true);

    // An output that could not be stored: the tracker is disconnected without the PUBACK.
    fail = true;
    const closed = new Promise<void>((r) => tracker?.once('close', () => r()));
    const refused = tracker?.publishAsync(`trackers/${IMEI}/telemetry`, JSON.stringify({ n: 2 }), { qos: 1 });
    await closed;
    tracker?.end(true);
    tracker = undefined;
    await expect(refused).rejects.toThrow('Connection closed');
  });

  it('takes Basic Ingest for its own IMEI: only the named rule gets the message, and sees the plain topic', async () => {
    const out = await start();
    await tracker?.publishAsync(`$aws/rules/TrackingPortal_trackerTelemetry/trackers/${IMEI}/telemetry`, JSON.stringify({ n: 1 }), { qos: 1 });
    await tracker?.publishAsync(`$aws/rules/TrackingPortal_commandAck/trackers/${IMEI}/ack`, JSON.stringify({ n: 2 }), { qos: 1 });
    await tracker?.publishAsync(`$aws/rules/TrackingPortal_teltonikaData/${IMEI}/data`, JSON.stringify({ n: 3 }), { qos: 1 });
    await tracker?.publishAsync(`trackers/${IMEI}/telemetry`, JSON.stringify({ n: 4 }), { qos: 1 });
    await vi.waitFor(() => expect(out).toHaveLength(4));
    expect(out.map((o) => [o.rule, o.event.topic, o.event.imei, bodyOf(o.event).n])).toEqual([
      ['trackerTelemetry', `trackers/${IMEI}/telemetry`, IMEI, 1],
      ['commandAck', `trackers/${IMEI}/ack`, IMEI, 2],
      ['teltonikaData', `${IMEI}/data`, IMEI, 3],
      ['trackerTelemetry', `trackers/${IMEI}/telemetry`, IMEI, 4],
    ]);
  });

  it.each([
    ["another tracker's topic", `$aws/rules/TrackingPortal_trackerTelemetry/trackers/${OTHER}/telemetry`],
    ['a rule that does not listen on the topic', `$aws/rules/TrackingPortal_commandAck/trackers/${IMEI}/telemetry`],
    ['a rule that does not exist', `$aws/rules/TrackingPortal_other/trackers/${IMEI}/telemetry`],
    ["another stack's rule", `$aws/rules/TrackingPortal_dev_trackerTelemetry/trackers/${IMEI}/telemetry`],
    ['a topic the tracker may not publish to', `$aws/rules/TrackingPortal_trackerTelemetry/trackers/${IMEI}/commands`],
  ])('refuses Basic Ingest to %s: the tracker is disconnected and no rule gets it', async (_what, topic) => {
    const out = await start();
    const closed = new Promise<void>((r) => tracker?.once('close', () => r()));
    const refused = tracker?.publishAsync(topic, JSON.stringify({ n: 1 }), { qos: 1 });
    await closed;
    tracker?.end(true);
    tracker = undefined;
    await expect(refused).rejects.toThrow('Connection closed');
    expect(out).toEqual([]);
  });

  it('authorizes a browser with a granted subscription again every refresh period, as IoT Core does, and stops when it goes', async () => {
    const refreshed: Array<{ id: string; password: string }> = [];
    const { url, close } = await startForBrowsers({ everyMs: 40, refresh: async (client) => void refreshed.push({ id: client.id, password: client.password?.toString() ?? '' }) });
    try {
      // Refused only: not watching, never refreshed.
      const idle = await mqtt.connectAsync(url, { clientId: 'web-u-2-abcdefgh', username: 'u-2', password: 'token-2', reconnectPeriod: 0 });
      await idle.subscribeAsync('live/acc-2/units/+').catch(() => undefined);
      const browser = await mqtt.connectAsync(url, { clientId: 'web-u-1-abcdefgh', username: 'u-1', password: 'token-1', reconnectPeriod: 0 });
      await browser.subscribeAsync('live/acc-1/units/+');
      await vi.waitFor(() => expect(refreshed.length).toBeGreaterThanOrEqual(2));
      expect(new Set(refreshed.map((r) => `${r.id} ${r.password}`))).toEqual(new Set(['web-u-1-abcdefgh token-1']));
      await browser.endAsync();
      await idle.endAsync();
      await new Promise((r) => setTimeout(r, 60));
      const after = refreshed.length;
      await new Promise((r) => setTimeout(r, 150));
      expect(refreshed.length).toBe(after);
    } finally {
      await close();
    }
  });

  it("sends a browser what it writes in one turn of the event loop as one WebSocket frame, every packet whole and in order", async () => {
    const { url, close } = await startForBrowsers();
    const socket = new WebSocket(url, 'mqtt');
    try {
      // MQTT 3.1.1 written by hand, so that the frames are what the broker sent.
      const text = (value: string) => Buffer.concat([Buffer.from([0, Buffer.byteLength(value)]), Buffer.from(value)]);
      const packet = (first: number, body: Buffer) => Buffer.concat([Buffer.from([first, body.length]), body]);
      const frames: Buffer[] = [];
      const packets: Array<{ type: number; body: Buffer }> = [];
      let pending = Buffer.alloc(0);
      socket.on('message', (data: Buffer) => {
        frames.push(data);
        pending = Buffer.concat([pending, data]);
        for (;;) {
          let length = 0;
          let offset = 1;
          for (let shift = 0; ; shift += 7) {
            if (offset >= pending.length) return;
            const byte = pending[offset++] as number;
            length += (byte & 0x7f) << shift;
            if (!(byte & 0x80)) break;
          }
          if (pending.length < offset + length) return;
          packets.push({ type: (pending[0] as number) >> 4, body: pending.subarray(offset, offset + length) });
          pending = pending.subarray(offset + length);
        }
      });
      await new Promise((open) => socket.once('open', open));
      const connect = Buffer.concat([text('MQTT'), Buffer.from([4, 0xc2, 0, 60]), text('web-u-1-abcdefgh'), text('u-1'), text('token-1')]);
      socket.send(packet(0x10, connect));
      socket.send(packet(0x82, Buffer.concat([Buffer.from([0, 1]), text('live/acc-1/units/+'), Buffer.from([0])])));
      await vi.waitFor(() => expect(packets.map((p) => p.type)).toEqual([2, 9]));

      const count = 200;
      await Promise.all(Array.from({ length: count }, (_, n) => broker?.publish(`live/acc-1/units/${n}`, JSON.stringify({ n }), 0)));
      await vi.waitFor(() => expect(packets.length).toBe(2 + count));
      const published = packets.slice(2).map(({ type, body }) => {
        const topicLength = body.readUInt16BE(0);
        return { type, topic: body.subarray(2, 2 + topicLength).toString(), n: (JSON.parse(body.subarray(2 + topicLength).toString()) as { n: number }).n };
      });
      expect(published).toEqual(Array.from({ length: count }, (_, n) => ({ type: 3, topic: `live/acc-1/units/${n}`, n })));
      // One frame per packet before: 200. The CONNACK and SUBACK came before any publish.
      expect(frames.length - 2).toBeLessThan(count / 10);
    } finally {
      socket.terminate();
      await close();
    }
  });

  it('finishes what it acknowledged (the drain) before it stops', async () => {
    let drained = false;
    await start(async () => {
      await new Promise((r) => setTimeout(r, 50));
      drained = true;
    });
    await tracker?.endAsync();
    tracker = undefined;
    await broker?.stop();
    broker = undefined;
    expect(drained).toBe(true);
  });
});
