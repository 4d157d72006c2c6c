/**
 * The simulated fleet over real MQTT: first on the embedded broker alone (its tracker permissions
 * and rule bridge, with the rule handlers replaced by a recorder), then against a whole runtime,
 * where its records end up as positions of the demo units.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeDeviceCommand } from '../../../functions/platform/adapters/device-encoding';
import { dynamo, tableName } from '../../../functions/platform/db';
import { iotRules, type IotRuleEvent } from '../../../shared/iot-rules';
import { startRuntime } from '../../../test/support/runtime';
import { startLocalBroker, type LocalBroker } from '../broker';
import type { EmbeddedRuntime } from '../runtime';
import { demoImei, simulatedUnits } from '../seed';
import { startSimulator, type RunningSimulator } from './simulator';
import { positionsOfItem } from '../../../functions/ingest/position-codec';

const quiet = () => undefined;
const decode = (e: IotRuleEvent) => JSON.parse(Buffer.from(e.payload, 'base64').toString()) as Record<string, unknown>;

describe('simulated trackers on the broker', () => {
  let broker: LocalBroker;
  let sim: RunningSimulator;
  const events: IotRuleEvent[] = [];
  const units = simulatedUnits(8);

  beforeAll(async () => {
    broker = await startLocalBroker({
      port: 0,
      host: '127.0.0.1',
      rules: iotRules,
      onRuleOutput: (_rule, event) => void events.push(event),
    });
    sim = await startSimulator({ mqttUrl: `mqtt://127.0.0.1:${broker.port}`, trackers: units.length, intervals: { movingS: 1, parkedS: 1 }, tickMs: 200, log: quiet });
  });
  afterAll(async () => {
    await sim?.stop();
    await broker?.stop();
  });

  it('connect as their IMEIs and publish their records on their own topics', async () => {
    expect(sim.trackers.map((t) => t.imei)).toEqual(units.map((u) => u.imei));
    await vi.waitFor(
      () => {
        for (const u of units) {
          const topic = u.protocol === 'native' ? `trackers/${u.imei}/telemetry` : `${u.imei}/data`;
          expect(events.some((e) => e.topic === topic && e.imei === u.imei)).toBe(true);
        }
      },
      { timeout: 10_000, interval: 200 },
    );
    const native = events.find((e) => e.imei === demoImei(0));
    expect(decode(native as IotRuleEvent)).toMatchObject({ lat: expect.any(Number), lon: expect.any(Number), ts: expect.any(Number) });
    const teltonika = units.find((u) => u.protocol === 'teltonika');
    expect(teltonika).toBeDefined();
    expect(decode(events.find((e) => e.imei === teltonika?.imei) as IotRuleEvent)).toMatchObject({ state: { reported: { latlng: expect.any(String) } } });
  });

  it('acknowledge a native command with its id and report the output switched', async () => {
    const imei = demoImei(1);
    const id = randomUUID();
    const cmd = encodeDeviceCommand(imei, { id, type: 'dout', params: { output: 1, on: true } }, 'native');
    const before = events.length;
    await broker.publish(cmd.topic, cmd.payload, cmd.qos);
    await vi.waitFor(
      () => {
        const ack = events.slice(before).find((e) => e.topic === `trackers/${imei}/ack`);
        expect(ack && decode(ack)).toEqual({ id, ok: true });
        const after = events.slice(before).filter((e) => e.topic === `trackers/${imei}/telemetry`).map(decode);
        expect(after.some((r) => (r['dout'] as Record<string, boolean> | undefined)?.['1'] === true)).toBe(true);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('answer a Teltonika command on the device\'s data topic', async () => {
    const unit = units.find((u) => u.protocol === 'teltonika');
    const imei = unit?.imei ?? '';
    const cmd = encodeDeviceCommand(imei, { id: 'unused', type: 'dout', params: { output: 2, on: true, durationSeconds: 30 } }, 'teltonika');
    const before = events.length;
    await broker.publish(cmd.topic, cmd.payload, cmd.qos);
    await vi.waitFor(
      () => {
        const answer = events.slice(before).find((e) => e.topic === `${imei}/data` && 'RSP' in decode(e));
        expect(answer && decode(answer)).toEqual({ RSP: 'DOUT1:IGNORED DOUT2:ON Timeout:30s DOUT3:IGNORED' });
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});

describe('the simulated fleet in the embedded runtime', () => {
  let rt: EmbeddedRuntime;
  const imeis = [demoImei(0), demoImei(1), demoImei(2)];

  beforeAll(async () => {
    rt = await startRuntime();
  });
  afterAll(async () => {
    await rt?.stop();
  });

  const positionsOf = async (imei: string) =>
    ((await dynamo().send(new QueryCommand({ TableName: tableName('positions'), KeyConditionExpression: 'imei = :i', ExpressionAttributeValues: { ':i': imei } }))).Items ?? []).flatMap(positionsOfItem).sort((a, b) => a.ts - b.ts);
  const stateOf = async (imei: string) =>
    (await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei } }))).Item?.['state'] as
      | { ts: number; lat: number; lon: number; odometer: number }
      | undefined;

  it('drives the demo units: their positions are stored and their latest state kept', async () => {
    const sim = await startSimulator({ mqttUrl: rt.mqttUrl, trackers: 3, intervals: { movingS: 1, parkedS: 1 }, tickMs: 250, resume: true, log: quiet });
    try {
      await vi.waitFor(
        async () => {
          for (const imei of imeis) expect((await positionsOf(imei)).length).toBeGreaterThanOrEqual(3);
        },
        { timeout: 20_000, interval: 500 },
      );
    } finally {
      await sim.stop();
    }
    for (const imei of imeis) {
      const stored = await positionsOf(imei);
      for (const p of stored) {
        expect(p['lat']).toBeGreaterThan(59.2);
        expect(p['lat']).toBeLessThan(59.45);
      }
      const state = await stateOf(imei);
      expect(state?.ts).toBe(Math.max(...stored.map((p) => p['ts'] as number)));
    }
  });

  it('resumes each unit where it was last seen after a restart, so nothing jumps', async () => {
    const states = await Promise.all(imeis.map(stateOf));
    const sim = await startSimulator({ mqttUrl: rt.mqttUrl, trackers: 3, intervals: { movingS: 1, parkedS: 1 }, tickMs: 250, resume: true, log: quiet });
    try {
      for (const [i, t] of sim.trackers.entries()) {
        const state = states[i];
        expect(state).toBeDefined();
        // The excavator (index 3) is not among these three: each of them is a vehicle that resumes in place.
        expect(t.vehicle.distanceTo(state as { lat: number; lon: number })).toBeLessThan(0.01);
        expect(t.vehicle.snapshot().odometerM).toBe(state?.odometer);
      }
      const before = await Promise.all(imeis.map(async (imei) => (await positionsOf(imei)).length));
      await vi.waitFor(
        async () => {
          const now = await Promise.all(imeis.map(async (imei) => (await positionsOf(imei)).length));
          now.forEach((n, i) => expect(n).toBeGreaterThan(before[i] as number));
        },
        { timeout: 20_000, interval: 500 },
      );
    } finally {
      await sim.stop();
    }
  });
});
