/**
 * A replay of the ingest stream's write-ahead log (infra/local/ingest-log.ts) after a crash hands
 * ingest records it may have stored already: those change nothing and alarm nobody a second time.
 * The runtime runs with a data directory; the log as a crash would have left it (copied once the
 * trackers had their PUBACKs, before it was trimmed) is put back before the next start.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { createReceiver } from '../../functions/alarms/receiver-repository';
import { dynamo, tableName } from '../../functions/platform/db';
import { putUnitCopies } from '../../functions/domain/unit/copies';
import type { UnitZone } from '../../functions/domain/unit/schema';
import { readSegment } from '../../infra/local/ingest-log';
import { startEmbeddedRuntime, type EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei, seedDemo } from '../../infra/local/seed';
import { call } from '../support/http';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { eventually } from '../support/eventually';
import { fileDynamo } from '../support/file-dynamo';

const dataDir = mkdtempSync(join(tmpdir(), 'ingest-replay-'));
const saved = mkdtempSync(join(tmpdir(), 'ingest-replay-log-'));
const prefix = `t${Date.now().toString(36)}-`;
let rt: EmbeddedRuntime | undefined;

const start = (ingestCheckpointEveryMs?: number) =>
  startEmbeddedRuntime({ port: 0, mqttPort: 0, dataDir, host: '127.0.0.1', dynamo: fileDynamo(), tablePrefix: prefix, timeToLive: false, seed: false, ...(ingestCheckpointEveryMs ? { ingestCheckpointEveryMs } : {}) });

afterAll(async () => {
  await rt?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(saved, { recursive: true, force: true });
});

const IMEI = demoImei(0);
const YARD: UnitZone = { name: 'Depot', lat: 59.33, lon: 18.06, radius: 300, alarm: true, active: true, theftMode: false, off: [], timeZone: 'Europe/Stockholm' };
const north = (m: number) => YARD.lat + m / 111_195;
const MAIL = 'replay-guard@example.se';

const outbox = async (runtime: EmbeddedRuntime) =>
  (await call<{ data: { kind: string; subject?: string }[] }>(runtime.url, 'GET', `/api/dev/outbox?to=${encodeURIComponent(MAIL)}`)).body.data;
const unitItem = async () => (await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei: IMEI }, ConsistentRead: true }))).Item;
const segments = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.log'));
/** Records of the unit a restart on this log would replay: those above the checkpoint mark. */
const loggedIn = (dir: string) => {
  const mark = readdirSync(dir).includes('checkpoint') ? Number(readFileSync(join(dir, 'checkpoint'), 'utf8')) : 0;
  return segments(dir)
    .flatMap((name) => readSegment(readFileSync(join(dir, name))))
    .filter((r) => r.seq > mark)
    .map((r) => JSON.parse(r.data.toString()) as { imei: string; payload: string })
    .filter((e) => e.imei === IMEI).length;
};

describe('ingest replay after a crash', () => {
  it('stores nothing twice and sends no second alarm for records it had handled before the crash', async () => {
    // No checkpoint until it stops: what the log holds when the trackers have their PUBACKs is what a crash then leaves.
    rt = await start(3_600_000);
    await seedDemo(DEMO_REGISTERED_AT);
    const accountId = String((await unitItem())?.['accountId']);
    await putUnitCopies(IMEI, accountId, { zones: { depot: YARD } });
    await createReceiver(
      accountId,
      { name: 'Night guard', email: MAIL, countryCode: null, phone: null, pushNotification: false, securityAlarm: true, functionAlarm: true, memberId: null, gpsImeis: [IMEI], bleIds: [] },
      new Date(),
    );

    const tracker = await mqtt.connectAsync(rt.mqttUrl, { clientId: IMEI, reconnectPeriod: 0 });
    const t0 = Date.now() - 120_000;
    const send = (ts: number, m: number) => tracker.publishAsync(`trackers/${IMEI}/telemetry`, JSON.stringify({ ts, lat: north(m), lon: YARD.lon, sat: 9, spd: 40 }), { qos: 1 });
    await send(t0, 0);
    await send(t0 + 30_000, 100);
    await send(t0 + 60_000, 800);
    // Acknowledged, so in the log.
    cpSync(join(dataDir, 'ingest-log'), saved, { recursive: true });
    await tracker.endAsync();
    expect(loggedIn(saved)).toBe(3);

    expect((await eventually(() => outbox(rt as EmbeddedRuntime), (m) => m.length >= 1, 'the alarm e-mail')).map((m) => m.subject)).toEqual([
      'Service van 1: Lämnade Depot',
    ]);
    const before = await eventually(unitItem, (item) => (item?.['state'] as { ts?: number } | undefined)?.ts === t0 + 60_000, 'the state');
    await rt.stop();
    rt = undefined;

    // The log as the crash left it; the next start replays it before it answers.
    rmSync(join(dataDir, 'ingest-log'), { recursive: true, force: true });
    cpSync(saved, join(dataDir, 'ingest-log'), { recursive: true });
    rt = await start(3_600_000);
    expect(loggedIn(join(dataDir, 'ingest-log'))).toBe(3);

    // The replayed records were stored already: no transition (the revision holds), so no effect.
    const after = await unitItem();
    expect(after?.['rev']).toBe(before?.['rev']);
    expect(after?.['state']).toEqual(before?.['state']);
    expect(await outbox(rt)).toHaveLength(1);
    // They were handled: the checkpoint of the stop puts them below the mark.
    await rt.stop();
    rt = undefined;
    expect(loggedIn(join(dataDir, 'ingest-log'))).toBe(0);
  });
});
