/**
 * Congestion tax passages at ingest, end to end against DynamoDB Local: tracker messages through
 * `ingestMessages` with the passage stage and its effect senders, the passages read back from the
 * table. Hand-made tracks across Danvikstull and Essingeleden: a crossing split over two messages
 * and redelivered, both directions, fixes far apart, a late buffer inside a step.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IotRuleEvent } from '../../shared/iot-rules';
import { parseDateTime } from '../../shared/local-time';
import { imeiFrom } from '../../shared/validators/imei';
import { lineOf, near } from '../../test/support/congestion-track';
import { useLocalTables } from '../../test/support/local-tables';
import { ingestMessages } from '../ingest/ingest-message';
import { EFFECT_SENDERS, INGEST_STAGES } from '../ingest/stages';
import type { IngestPorts, IngestStage } from '../ingest/transitions';
import { getPorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import { unitPassages } from './passage-repository';
import { PASSAGE_EFFECT_SENDERS, PASSAGE_FOUND, PASSAGES_REDETECT, passageStage } from './passage-stage';

const ACCOUNT = `acc-${randomUUID()}`;
let serial = 0;
const nextImei = () => imeiFrom(`35693809${String(700000 + serial++).padStart(6, '0')}`);
const at = (wall: string) => parseDateTime(wall.replace(' ', 'T'), 'Europe/Stockholm');

let ports: IngestPorts;
const options = { stages: [passageStage as IngestStage], senders: PASSAGE_EFFECT_SENDERS };
beforeAll(async () => {
  await useLocalTables();
  const all = getPorts();
  ports = { live: { publish: async () => undefined }, clock: all.clock, geocoder: all.geocoder, alerts: all.alerts, queues: all.queues, devices: all.devices };
});

async function registerUnit(): Promise<string> {
  const imei = nextImei();
  await dynamo().send(
    new PutCommand({ TableName: tableName('units'), Item: { imei, accountId: ACCOUNT, name: imei, vehicleType: 'car', protocol: 'native', createdAt: '2025-01-01T00:00:00.000Z' } }),
  );
  return imei;
}

type Rec = ReturnType<typeof near>;

const message = (imei: string, records: Rec[]): IotRuleEvent => ({
  payload: Buffer.from(JSON.stringify({ records })).toString('base64'),
  topic: `trackers/${imei}/telemetry`,
  imei,
  receivedAt: Math.max(...records.map((r) => r.ts)) + 1000,
});

const passagesOf = async (imei: string) =>
  (await unitPassages(ACCOUNT, imei, 0, Date.parse('2100-01-01'), { consistent: true })).map((p) => ({ stationId: p.stationId, direction: p.direction, time: p.time, uncertain: p.uncertain }));

const danvik = lineOf('sth-danvikstull');

describe('passages at ingest', () => {
  it('is an ingest stage with its senders', () => {
    expect(INGEST_STAGES).toContain(passageStage);
    expect(EFFECT_SENDERS[PASSAGE_FOUND]).toBe(PASSAGE_EFFECT_SENDERS[PASSAGE_FOUND]);
    expect(EFFECT_SENDERS[PASSAGES_REDETECT]).toBe(PASSAGE_EFFECT_SENDERS[PASSAGES_REDETECT]);
  });

  it('stores a crossing split over two messages once, however often they come', async () => {
    const imei = await registerUnit();
    const t = at('2026-03-10 10:00:00');
    const first = message(imei, [near(danvik, -300, t), near(danvik, -100, t + 20_000)]);
    // 100 m before the line to 100 m after it in 20 s: crossed at t + 30 s.
    const second = message(imei, [near(danvik, 100, t + 40_000), near(danvik, 300, t + 60_000)]);
    await ingestMessages([first], ports, options);
    await ingestMessages([second], ports, options);
    await ingestMessages([first, second], ports, options);
    await ingestMessages([second], ports, options);
    expect(await passagesOf(imei)).toEqual([{ stationId: 'sth-danvikstull', direction: 'in', time: t + 30_000, uncertain: false }]);
  });

  it('finds both directions, and marks a crossing between fixes far apart uncertain', async () => {
    const imei = await registerUnit();
    const t = at('2026-03-10 07:10:00');
    await ingestMessages([message(imei, [near(danvik, -200, t), near(danvik, 200, t + 40_000)])], ports, options);
    // Back out 2 h later; then in again with fixes 5 minutes apart.
    await ingestMessages([message(imei, [near(danvik, 100, t + 120 * 60_000), near(danvik, -100, t + 120 * 60_000 + 20_000)])], ports, options);
    await ingestMessages([message(imei, [near(danvik, -500, t + 180 * 60_000), near(danvik, 500, t + 185 * 60_000)])], ports, options);
    expect(await passagesOf(imei)).toEqual([
      { stationId: 'sth-danvikstull', direction: 'in', time: t + 20_000, uncertain: false },
      { stationId: 'sth-danvikstull', direction: 'out', time: t + 120 * 60_000 + 10_000, uncertain: false },
      { stationId: 'sth-danvikstull', direction: 'in', time: t + 180 * 60_000 + 150_000, uncertain: true },
    ]);
  });

  it('counts Essingeleden once per pass across messages', async () => {
    const imei = await registerUnit();
    const t = at('2026-03-10 08:00:00');
    const fredhall = lineOf('sth-ess-fredhall');
    const kristineberg = lineOf('sth-ess-kristineberg');
    await ingestMessages([message(imei, [near(fredhall, -100, t), near(fredhall, 100, t + 10_000)])], ports, options);
    await ingestMessages([message(imei, [near(kristineberg, -100, t + 60_000), near(kristineberg, 100, t + 70_000)])], ports, options);
    const stored = await passagesOf(imei);
    expect(stored.map((p) => p.stationId)).toEqual(['sth-ess-fredhall']);
  });

  it('re-detects the window of a late buffer: the step it splits gives its passage anew', async () => {
    const imei = await registerUnit();
    const t = at('2026-03-10 10:00:00');
    // Fixes 10 minutes apart across the line: uncertain, at the step's middle.
    await ingestMessages([message(imei, [near(danvik, -600, t), near(danvik, 600, t + 600_000)])], ports, options);
    await ingestMessages([message(imei, [near(danvik, 700, t + 660_000)])], ports, options);
    expect(await passagesOf(imei)).toEqual([{ stationId: 'sth-danvikstull', direction: 'in', time: t + 300_000, uncertain: true }]);
    // The tracker's buffer of that drive comes after: 50 m either side of the line, 20 s apart.
    const late = message(imei, [near(danvik, -50, t + 400_000), near(danvik, 50, t + 420_000)]);
    await ingestMessages([late], ports, options);
    await ingestMessages([late], ports, options);
    expect(await passagesOf(imei)).toEqual([{ stationId: 'sth-danvikstull', direction: 'in', time: t + 410_000, uncertain: false }]);
  });
});
