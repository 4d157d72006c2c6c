/**
 * `npx tsx scripts/cost/item-sizes.ts [--trackers 5] [--days 3]`: measures what the cost model
 * (scripts/cost/model.ts) needs to know about the stored items, on the real code path. It starts
 * the embedded runtime in memory with simulated trackers, lets them fill `--days` of demo history
 * through ingest (the same handlers as on AWS: stages, trips, events, day rollups), then reads the
 * tables and writes scripts/cost/item-sizes.json: per table the items, their mean and largest
 * size as DynamoDB counts it (itemSize below), and the write and read units one write or strongly
 * consistent read of a mean item costs. Run it again after a change to what ingest stores.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../functions/platform/db';
import { RECENT_TRIPS, reusedAddress, type KnownEnd } from '../../functions/trips/known-places';
import { tables, type TableKey } from '../../shared/tables';
import { startLocalDynamo } from '../../infra/local/dynamo-local';
import { startEmbeddedRuntime } from '../../infra/local/runtime';
import { itemSize } from './dynamo-size';

const { values: flags } = parseArgs({ options: { trackers: { type: 'string', default: '5' }, days: { type: 'string', default: '3' } } });
const trackers = Number(flags.trackers);
const days = Number(flags.days);

/** The tables a tracker's positions write on their way (and that the model prices per position, trip or event). */
const MEASURED: readonly TableKey[] = ['positions', 'units', 'unitCopies', 'trips', 'unitDays', 'tripRollups', 'events', 'passages'];

interface TableSizes {
  items: number;
  meanBytes: number;
  maxBytes: number;
  /** Mean over the items of the write units one write of the item costs (per started KB). */
  writeUnits: number;
  /** The same for a strongly consistent read (per started 4 KB). */
  strongReadUnits: number;
}

async function scanAll(key: TableKey): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out: ScanCommandOutput = await dynamo().send(new ScanCommand({ TableName: tableName(key), ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * Shares of trip starts and stops that take their address from where the unit parked before
 * (functions/trips/trip-addresses.ts reusedAddress, over the unit's RECENT_TRIPS latest trips)
 * instead of a geocoder call.
 */
async function endsAtKnownPlace(): Promise<{ starts: number; stops: number }> {
  const byUnit = new Map<string, Array<Record<string, number>>>();
  for (const t of await scanAll('trips')) byUnit.set(String(t['imei']), [...(byUnit.get(String(t['imei'])) ?? []), t as Record<string, number>]);
  let trips = 0;
  let starts = 0;
  let stops = 0;
  for (const list of byUnit.values()) {
    list.sort((a, b) => (a['startTs'] as number) - (b['startTs'] as number));
    list.forEach((t, i) => {
      trips++;
      // What recentTripEnds answers for this trip: the ends of the trips before it, newest first.
      const known: KnownEnd[] = list
        .slice(Math.max(0, i - RECENT_TRIPS), i)
        .reverse()
        .flatMap((b) => [
          { lat: b['stopLat'] as number, lon: b['stopLon'] as number, address: 'x', end: 'stop' as const, startTs: b['startTs'] as number },
          { lat: b['startLat'] as number, lon: b['startLon'] as number, address: 'x', end: 'start' as const, startTs: b['startTs'] as number },
        ]);
      if (reusedAddress('start', t['startLat'] as number, t['startLon'] as number, known)) starts++;
      known.push({ lat: t['startLat'] as number, lon: t['startLon'] as number, address: 'x' });
      if (reusedAddress('stop', t['stopLat'] as number, t['stopLon'] as number, known)) stops++;
    });
  }
  const share = (n: number) => (trips ? Math.round((n / trips) * 1000) / 1000 : 0);
  return { starts: share(starts), stops: share(stops) };
}

async function scanSizes(key: TableKey): Promise<TableSizes> {
  let items = 0;
  let total = 0;
  let max = 0;
  let writeUnits = 0;
  let readUnits = 0;
  for (const item of await scanAll(key)) {
    const size = itemSize(item);
    items++;
    total += size;
    max = Math.max(max, size);
    writeUnits += Math.max(1, Math.ceil(size / 1024));
    readUnits += Math.max(1, Math.ceil(size / 4096));
  }
  const mean = (x: number) => (items ? Math.round((x / items) * 1000) / 1000 : 1);
  return { items, meanBytes: items ? Math.round(total / items) : 0, maxBytes: max, writeUnits: mean(writeUnits), strongReadUnits: mean(readUnits) };
}

const db = await startLocalDynamo();
const runtime = await startEmbeddedRuntime({ port: 0, mqttPort: 0, dataDir: null, dynamo: db, seed: true, simulatedTrackers: trackers, demoHistoryDays: days, warmGeocoder: true });
try {
  if (runtime.demoHistory) await runtime.demoHistory.filled;
  // Let the work queues (trip addresses, day rollups) finish what the history started.
  await new Promise((r) => setTimeout(r, 10_000));
  const result: Record<string, TableSizes> = {};
  for (const key of MEASURED) result[tables[key].name] = await scanSizes(key);
  // What the demo fleet's personalities did per unit and day (for comparison with the model's assumptions).
  const unitDays = trackers * days;
  const perUnitDay = (table: string) => Math.round(((result[table]?.items ?? 0) / unitDays) * 100) / 100;
  const out = {
    measured: new Date().toISOString().slice(0, 10),
    how: `npx tsx scripts/cost/item-sizes.ts --trackers ${trackers} --days ${days}: ${trackers} simulated trackers, ${days} days of demo history through ingest`,
    tripEndsAtKnownPlace: await endsAtKnownPlace(),
    perUnitDay: { positions: perUnitDay('positions'), trips: perUnitDay('trips'), events: perUnitDay('events'), passages: perUnitDay('passages') },
    tables: result,
  };
  writeFileSync(new URL('./item-sizes.json', import.meta.url), `${JSON.stringify(out, null, 2)}\n`);
  console.log(JSON.stringify(out, null, 2));
} finally {
  await runtime.stop();
  await db.stop();
}
process.exit(0);
