/**
 * What the ingest benchmarks share (ingest.ts, ingest-store.ts): the CPU of the DynamoDB Local
 * they started, read from /proc, and the geofences they scatter over the fleet.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { putUnitCopies } from '../../functions/domain/unit/copies';
import type { UnitZone } from '../../functions/domain/unit/schema';

/** CPU seconds in a /proc stat line: fields 14 and 15 (utime, stime), counted after the command in parentheses; clock ticks are 100 per second. */
export const ticks = (stat: string): number => {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/**
 * CPU seconds of this process's DynamoDB Local (a child JVM) and of its SQLite thread (the engine
 * runs every statement on that one thread, so it caps the engine's throughput at one core); NaN
 * when there is none. Linux only (/proc): throws elsewhere.
 */
export function dynamoLocalCpu(): { dynamoS: number; sqliteS: number } {
  const children = readdirSync('/proc/self/task').flatMap((t) => readFileSync(`/proc/self/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean));
  const jvm = children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal'));
  if (!jvm) return { dynamoS: NaN, sqliteS: NaN };
  const sqliteS = readdirSync(`/proc/${jvm}/task`)
    .filter((t) => readFileSync(`/proc/${jvm}/task/${t}/comm`, 'utf8').startsWith('SQLiteQueue'))
    .reduce((sum, t) => sum + ticks(readFileSync(`/proc/${jvm}/task/${t}/stat`, 'utf8')), 0);
  return { dynamoS: ticks(readFileSync(`/proc/${jvm}/stat`, 'utf8')), sqliteS };
}

/** A small deterministic generator, so that every run scatters the same zones. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An active alarm circle, always on. */
export const benchZone = (name: string, lat: number, lon: number, radius: number): UnitZone => ({
  name, lat, lon, radius, alarm: true, active: true, theftMode: false, off: [], timeZone: 'Europe/Stockholm',
});

/** `count` circles per unit over Greater Stockholm (300 m to 3 km), written onto the units as the geofences capability would. */
export async function scatterZones(accountId: string, imeis: readonly string[], count: number, seed: number): Promise<void> {
  if (count === 0) return;
  const random = mulberry32(seed);
  const writes = imeis.map((imei) => {
    const zones: Record<string, UnitZone> = {};
    for (let z = 0; z < count; z++) zones[`z${z}`] = benchZone(`Zone ${z + 1}`, 59.22 + random() * 0.22, 17.8 + random() * 0.5, 300 + Math.round(random() * 2700));
    return { imei, zones };
  });
  for (let i = 0; i < writes.length; i += 32) {
    await Promise.all(writes.slice(i, i + 32).map((w) => putUnitCopies(w.imei, accountId, { zones: w.zones })));
  }
}
