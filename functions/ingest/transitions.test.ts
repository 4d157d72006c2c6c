/**
 * Stages and their effects through the real ingest path against DynamoDB Local: a stage's state
 * is carried from batch to batch on the units item, and an effect it decides is sent exactly once,
 * however often the batch is delivered again or races its own retry.
 */
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IotRuleEvent } from '../../shared/iot-rules';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { dynamo, tableName } from '../platform/db';
import { getUnitItem } from '../domain/unit/reads';
import { ingestMessages } from './ingest-message';
import { positionItem, putPositionIfNew } from './repository';
import type { Position } from './types';
import type { EffectSender, IngestPorts, IngestStage } from './transitions';

const ACCOUNT = 'acc-transitions';
const NOW = Math.floor(Date.now() / 1000) * 1000;
let serial = 0;
const nextImei = () => imeiFrom(`35693809${String(700000 + serial++).padStart(6, '0')}`);
const ports: IngestPorts = {
  live: { publish: async () => undefined },
  clock: { now: () => new Date(NOW) },
  geocoder: { reverse: async () => null, search: async () => [] },
  alerts: { enqueue: async () => undefined },
  queues: { send: async () => undefined },
  devices: { send: async () => undefined },
};

async function registerUnit(): Promise<string> {
  const imei = nextImei();
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { imei, accountId: ACCOUNT, name: imei, vehicleType: 'car', protocol: 'native', createdAt: new Date(NOW - 86_400_000).toISOString() } }));
  return imei;
}

const telemetry = (imei: string, ts: number, ign: boolean): IotRuleEvent => ({
  payload: Buffer.from(JSON.stringify({ ts, lat: 59.3293, lon: 18.0686, sat: 9, ign })).toString('base64'),
  topic: `trackers/${imei}/telemetry`,
  imei,
  receivedAt: NOW,
});

/** Counts ignition-on positions, and decides an "ignition on" alarm when the ignition turns on. */
const ignitionStage: IngestStage<{ on: number }> = {
  name: 'ignition',
  parse: (stored) => (typeof (stored as { on?: unknown })?.on === 'number' ? (stored as { on: number }) : undefined),
  run: ({ unit, previous, before, positions }) => {
    const on = (previous?.on ?? 0) + positions.filter((p) => p.ignition).length;
    const turnedOn = positions.find((p, i) => p.ignition && !(i ? positions[i - 1]?.ignition : before?.ignition));
    return { state: { on }, effects: turnedOn ? [{ id: `ignition-${unit.imei}-${turnedOn.ts}`, kind: 'alarm', payload: { ts: turnedOn.ts } }] : [] };
  },
};

/** A decoded position as the telemetry above decodes (only what the stages read matters here). */
const decodedAt = (ts: number): Position => ({
  ts, lat: 59.3293, lon: 18.0686, fix: true, speed: undefined, heading: undefined, alt: undefined, sats: 9, hdop: undefined,
  ignition: true, movement: undefined, odometer: undefined, engineSeconds: undefined, extVolts: undefined, batVolts: undefined,
  din: undefined, dout: undefined, ble: undefined, rfid: undefined, eco: undefined, io: undefined,
});

beforeAll(useLocalTables);

describe('ingest stages and effects', () => {
  it("carries a stage's state on the unit and sends its effect once, however often the batch comes again", async () => {
    const imei = await registerUnit();
    const sent: unknown[] = [];
    const senders: Record<string, EffectSender> = { alarm: async (effect) => void sent.push(effect.payload) };
    const options = { stages: [ignitionStage], senders };

    await ingestMessages([telemetry(imei, NOW - 60_000, false)], ports, options);
    const batch = [telemetry(imei, NOW - 30_000, true), telemetry(imei, NOW - 20_000, true)];
    await ingestMessages(batch, ports, options);
    await ingestMessages(batch, ports, options);
    // A retry racing its original: the revision lets one transition through, the other recomputes and finds nothing new.
    await Promise.all([ingestMessages(batch, ports, options), ingestMessages(batch, ports, options)]);

    expect(sent).toEqual([{ ts: NOW - 30_000 }]);
    const unit = await getUnitItem(imei, { consistent: true });
    expect(unit?.stages).toEqual({ ignition: { on: 2 } });
    expect(unit?.effects).toEqual({});
    expect(unit?.rev).toBe(2);
  });

  it('keeps an effect whose sender failed as claimed: never sent twice, even when the batch is retried', async () => {
    const imei = await registerUnit();
    let tries = 0;
    const senders: Record<string, EffectSender> = {
      alarm: async () => {
        tries++;
        throw new Error('SMS gateway down');
      },
    };
    const batch = [telemetry(imei, NOW - 10_000, true)];
    await ingestMessages(batch, ports, { stages: [ignitionStage], senders });
    await ingestMessages(batch, ports, { stages: [ignitionStage], senders });
    // A newer batch delivers what is still pending on the unit; the claimed one is not among it.
    await ingestMessages([telemetry(imei, NOW - 5000, true)], ports, { stages: [ignitionStage], senders });
    expect(tries).toBe(1);
    const unit = await getUnitItem(imei, { consistent: true });
    expect(Object.values(unit?.effects ?? {})).toMatchObject([{ kind: 'alarm', status: 'sending' }]);
  });

  it('sends an effect a crashed batch left pending with the next batch of the unit', async () => {
    const imei = await registerUnit();
    const sent: unknown[] = [];
    const senders: Record<string, EffectSender> = { alarm: async (effect) => void sent.push(effect.id) };
    await ingestMessages([telemetry(imei, NOW - 60_000, false)], ports, { stages: [ignitionStage], senders });
    // As a transition stored by a process that died before sending.
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('units'),
        Key: { imei },
        UpdateExpression: 'SET effects = :e',
        ExpressionAttributeValues: { ':e': { left: { kind: 'alarm', status: 'pending', payload: {}, at: NOW } } },
      }),
    );
    await ingestMessages([telemetry(imei, NOW - 50_000, false)], ports, { stages: [ignitionStage], senders });
    expect(sent).toEqual(['left']);
    expect((await getUnitItem(imei, { consistent: true }))?.effects).toEqual({});
  });

  it('hands a stage the late positions of a batch, even a batch with nothing newer, and writes nothing when no stage changed', async () => {
    const imei = await registerUnit();
    const seen: number[][] = [];
    /** Remembers the earliest late position it was shown, and asks once per window to look at it again. */
    const lateStage: IngestStage<{ earliestLate?: number }> = {
      name: 'late',
      parse: (stored) => (stored && typeof stored === 'object' ? (stored as { earliestLate?: number }) : undefined),
      run: ({ previous, late }) => {
        seen.push(late.map((p) => p.ts));
        const first = late[0]?.ts;
        if (first === undefined || (previous?.earliestLate !== undefined && previous.earliestLate <= first)) return { state: previous };
        return { state: { earliestLate: first }, effects: [{ id: `again-${first}`, kind: 'again', payload: { from: first } }] };
      },
    };
    const sent: unknown[] = [];
    const options = { stages: [lateStage], senders: { again: (async (effect) => void sent.push(effect.payload)) as EffectSender } };
    await ingestMessages([telemetry(imei, NOW - 10_000, true)], ports, options);
    const revBefore = (await getUnitItem(imei, { consistent: true }))?.rev;
    // Only older positions: stored, and the stage is shown them in time order.
    await ingestMessages([telemetry(imei, NOW - 20_000, true), telemetry(imei, NOW - 40_000, true)], ports, options);
    expect(seen.at(-1)).toEqual([NOW - 40_000, NOW - 20_000]);
    expect(sent).toEqual([{ from: NOW - 40_000 }]);
    const unit = await getUnitItem(imei, { consistent: true });
    expect(unit?.stages).toEqual({ late: { earliestLate: NOW - 40_000 } });
    expect(unit?.rev).toBe((revBefore ?? 0) + 1);
    // The same late batch again: shown again (a first attempt may have died before its transition),
    // but the stage decides nothing new, so the unit is not written.
    await ingestMessages([telemetry(imei, NOW - 20_000, true), telemetry(imei, NOW - 40_000, true)], ports, options);
    expect(seen.at(-1)).toEqual([NOW - 40_000, NOW - 20_000]);
    expect((await getUnitItem(imei, { consistent: true }))?.rev).toBe(unit?.rev);
    expect(sent).toHaveLength(1);
    // A redelivery of what came fresh: the stages saw those positions in time order already.
    const shown = seen.length;
    await ingestMessages([telemetry(imei, NOW - 10_000, true)], ports, options);
    expect(seen).toHaveLength(shown);
  });

  it('shows the stages a late position an earlier attempt stored but never passed on (it failed before its transition)', async () => {
    const imei = await registerUnit();
    const seen: number[][] = [];
    const recorder: IngestStage<{ n: number }> = {
      name: 'recorder',
      parse: (stored) => stored as { n: number } | undefined,
      run: ({ previous, late }) => {
        seen.push(late.map((p) => p.ts));
        return { state: { n: (previous?.n ?? 0) + late.length } };
      },
    };
    await ingestMessages([telemetry(imei, NOW - 10_000, true)], ports, { stages: [recorder] });
    // As the failed attempt left it: the late position stored (flagged late), no transition.
    const unit = (await getUnitItem(imei, { consistent: true }))!;
    await putPositionIfNew(positionItem(imei, { ...decodedAt(NOW - 30_000) }, NOW, 395, true));
    expect(unit.stages).toEqual({ recorder: { n: 0 } });
    await ingestMessages([telemetry(imei, NOW - 30_000, true)], ports, { stages: [recorder] });
    expect(seen.at(-1)).toEqual([NOW - 30_000]);
    expect((await getUnitItem(imei, { consistent: true }))?.stages).toEqual({ recorder: { n: 1 } });
  });
});
