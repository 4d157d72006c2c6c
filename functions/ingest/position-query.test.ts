/**
 * Reading positions in any stored form against DynamoDB Local: chunks of a message's positions
 * (written by ingest's own `chunkAttributes`), positions alone, chunks that overlap each other and
 * times stored twice, read forwards and backwards with and without a cap, compared with the
 * sorted list of every distinct time stored in the period.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { testPosition } from '../../test/support/positions';
import { useLocalTables } from '../../test/support/local-tables';
import { tableName } from '../platform/db';
import { batchPutMarshalled, type MarshalledItem } from './batch-write';
import { CHUNK_ATTRIBUTE, CHUNK_MAX_POSITIONS, CHUNK_SPAN_MS, PACKED_ATTRIBUTE, positionOfItem, positionsOfItem, type StoredPosition } from './position-codec';
import { readPositions } from './position-query';
import { chunkAttributes, positionAttributes, positionItem, timesInChunks } from './repository';

const T0 = Date.parse('2026-11-30T08:00:00.000Z');
let imeiSeq = 356938035640000;
const nextImei = () => String(imeiSeq++);

const item = (imei: string, ts: number) => positionItem(imei, testPosition(ts, 59 + (ts - T0) / 1e9, 18, { speed: (ts - T0) % 97 }), ts + 1500, 395);

beforeAll(async () => {
  await useLocalTables();
});

describe('chunks of positions', () => {
  it('cut a message into chunks of at most CHUNK_SPAN_MS from their oldest and CHUNK_MAX_POSITIONS, each position read back as written', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 3 * CHUNK_SPAN_MS }), { minLength: 1, maxLength: 250 }), (offsets) => {
        const written = offsets.map((o) => item('356938035643809', T0 + o));
        const items = chunkAttributes(written).map((i) => unmarshall(i));
        const sorted = [...written].sort((a, b) => a.ts - b.ts);
        const withoutExpiry = ({ expiresAt: _, ...p }: StoredPosition) => p;
        expect(items.flatMap(positionsOfItem).map(withoutExpiry)).toEqual(sorted.map((w) => withoutExpiry(positionOfItem(w))));
        const expiry = new Map(written.map((w) => [w.ts, w.expiresAt]));
        for (const i of items) {
          const inside = positionsOfItem(i);
          expect(i['ts']).toBe(inside[0]?.ts);
          expect((inside.at(-1)?.ts ?? 0) - (inside[0]?.ts ?? 0)).toBeLessThanOrEqual(CHUNK_SPAN_MS);
          expect(inside.length).toBeLessThanOrEqual(CHUNK_MAX_POSITIONS);
          // A position alone keeps the form of one position an item; the chunk expires with its newest.
          expect(Object.keys(i).sort()).toEqual(['expiresAt', 'imei', inside.length === 1 ? PACKED_ATTRIBUTE : CHUNK_ATTRIBUTE, 'ts'].sort());
          expect(i['expiresAt']).toBe(expiry.get(inside.at(-1)?.ts ?? NaN));
        }
        // Greedy: a chunk ends only where the next position would pass its span or its count.
        for (let k = 1; k < items.length; k++) {
          const prev = positionsOfItem(items[k - 1] as Record<string, unknown>);
          const next = items[k]?.['ts'] as number;
          expect(next - (prev[0]?.ts ?? 0) > CHUNK_SPAN_MS || prev.length === CHUNK_MAX_POSITIONS).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('readPositions', () => {
  /** Stores messages (each a list of times, stored as ingest stores a message) and lone positions; returns every distinct time the table then holds. */
  async function store(imei: string, messages: number[][], alone: number[]): Promise<number[]> {
    // One write each (a batch takes a key once). A later item of the same key replaces the one before, as in DynamoDB.
    const held = new Map<number, number[]>();
    const write = async (items: MarshalledItem[]) => {
      await batchPutMarshalled(tableName('positions'), items);
      for (const i of items.map((m) => unmarshall(m))) held.set(i['ts'] as number, positionsOfItem(i).map((p) => p.ts));
    };
    for (const times of messages) await write(chunkAttributes(times.map((ts) => item(imei, ts))));
    await write([...new Set(alone)].map((ts) => positionAttributes(item(imei, ts))));
    return [...new Set([...held.values()].flat())].sort((a, b) => a - b);
  }

  it('reads chunks and positions alone in time order, each time once, forwards and backwards, with and without a cap', async () => {
    // Whole half-minutes, so that times meet: a chunk keyed at a time another item holds, a time in two chunks.
    const offset = fc.integer({ min: 0, max: (4 * CHUNK_SPAN_MS) / 30_000 }).map((k) => T0 + k * 30_000);
    const stored = fc.record({
      messages: fc.array(fc.uniqueArray(offset, { minLength: 1, maxLength: 30 }), { maxLength: 5 }),
      alone: fc.array(offset, { maxLength: 10 }),
    });
    const period = fc.tuple(fc.integer({ min: -CHUNK_SPAN_MS, max: 5 * CHUNK_SPAN_MS }), fc.integer({ min: 0, max: 5 * CHUNK_SPAN_MS })).map(([a, span]) => [T0 + a, T0 + a + span] as const);
    const reads = fc.array(fc.record({ period, backwards: fc.boolean(), max: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }) }), { minLength: 1, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(stored, reads, async ({ messages, alone }, cases) => {
        const imei = nextImei();
        const all = await store(imei, messages, alone);
        for (const { period: [from, to], backwards, max } of cases) {
          const inPeriod = all.filter((ts) => ts >= from && ts <= to);
          const ordered = backwards ? [...inPeriod].reverse() : inPeriod;
          const read = await readPositions(imei, from, to, { attributes: [], backwards, max, consistent: true });
          expect(read.positions.map((p) => p.ts)).toEqual(max === undefined ? ordered : ordered.slice(0, max));
          expect(read.truncated).toBe(max !== undefined && ordered.length > max);
          // Every field comes back, whichever item held it.
          for (const p of read.positions) expect(p).toMatchObject({ lat: 59 + (p.ts - T0) / 1e9, lon: 18, speed: (p.ts - T0) % 97, receivedAt: p.ts + 1500 });
        }
      }),
      { numRuns: 25 },
    );
  });

  it('finds the late times a chunk holds, and not those stored alone', async () => {
    const imei = nextImei();
    await store(imei, [[T0, T0 + 5000, T0 + 10_000]], [T0 + 20_000]);
    expect(await timesInChunks(imei, [T0 - 1, T0 + 5000, T0 + 10_000, T0 + 20_000, T0 + 30_000])).toEqual(new Set([T0 + 5000, T0 + 10_000]));
    expect(await timesInChunks(imei, [])).toEqual(new Set());
  });
});
