/**
 * The unit lookup cache of the ingest path against DynamoDB Local: concurrent misses of one IMEI
 * share one read, one account is read once for all its units, entries loaded together expire
 * spread over a quarter of their TTL instead of all at once, and an expired unit is served while
 * it is reread, so that no message waits for the read.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { dynamo, tableName } from '../platform/db';
import { CACHE_TTL_MS, CACHE_TTL_SPREAD, MISS_TTL_MS, forgetUnits, lookupUnit } from './repository';
import type { UnitState } from './types';

const ACCOUNT = `acc-${randomUUID()}`;
let serial = 0;
const nextImei = () => imeiFrom(`35693813${String(400000 + serial++).padStart(6, '0')}`);
let reads: Array<{ table: string; key: string }> = [];
/** Reads sent and not answered yet. */
let inFlight = 0;

/** Until every read has been answered and none has started for a while: background refreshes are done. */
async function readsSettled(): Promise<void> {
  await vi.waitFor(async () => {
    const before = reads.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(inFlight).toBe(0);
    expect(reads.length).toBe(before);
  });
}

async function registerUnits(count: number): Promise<string[]> {
  const imeis = Array.from({ length: count }, nextImei);
  for (const imei of imeis) await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { imei, accountId: ACCOUNT, name: imei, vehicleType: 'car' } }));
  return imeis;
}

beforeAll(async () => {
  await useLocalTables();
  await dynamo().send(new PutCommand({ TableName: tableName('accounts'), Item: { accountId: ACCOUNT, name: 'Cache AB', retentionDays: 90 } }));
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'GetItemCommand') {
        const input = args.input as { TableName: string; Key: Record<string, string> };
        reads.push({ table: input.TableName, key: Object.values(input.Key).join() });
        inFlight++;
        try {
          return await next(args);
        } finally {
          inFlight--;
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'countReads' },
  );
});

beforeEach(() => {
  forgetUnits();
  reads = [];
});

describe('unit lookups', () => {
  it('read a unit once however many messages of it miss at the same time, and its account once for all units', async () => {
    const [a, b] = await registerUnits(2);
    reads = [];
    const found = await Promise.all([...Array.from({ length: 20 }, () => lookupUnit(a!)), lookupUnit(b!)]);
    expect(found.every((f) => f.status === 'registered' && f.accountId === ACCOUNT && f.retentionDays === 90)).toBe(true);
    expect(reads.filter((r) => r.table === tableName('units')).map((r) => r.key).sort()).toEqual([a, b].sort());
    expect(reads.filter((r) => r.table === tableName('accounts'))).toEqual([{ table: tableName('accounts'), key: ACCOUNT }]);

    // Cached: no read at all.
    reads = [];
    await Promise.all([lookupUnit(a!), lookupUnit(b!)]);
    expect(reads).toEqual([]);
  });

  it('a failed read is not cached: the next lookup tries again', async () => {
    const [imei] = await registerUnits(1);
    dynamo().middlewareStack.add(
      () => async () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      },
      { step: 'initialize', name: 'down' },
    );
    await expect(Promise.all([lookupUnit(imei!), lookupUnit(imei!)])).rejects.toThrow('ECONNREFUSED');
    dynamo().middlewareStack.remove('down');
    expect(await lookupUnit(imei!)).toMatchObject({ status: 'registered' });
  });

  it('expire spread over the last quarter of their TTL, so a fleet loaded at once does not miss at once', async () => {
    const imeis = await registerUnits(60);
    /** Units read again at `offsetMs` after all were loaded together. */
    const missesAt = async (offsetMs: number) => {
      forgetUnits();
      const loadedAt = Date.now();
      await Promise.all(imeis.map((i) => lookupUnit(i)));
      reads = [];
      await Promise.all(imeis.map((i) => lookupUnit(i, loadedAt + offsetMs)));
      await readsSettled();
      return reads.filter((r) => r.table === tableName('units')).length;
    };
    // Loading took some milliseconds; the bounds leave room for them.
    expect(await missesAt(CACHE_TTL_MS * (1 - CACHE_TTL_SPREAD) - 1)).toBe(0);
    const halfway = await missesAt(CACHE_TTL_MS * (1 - CACHE_TTL_SPREAD / 2));
    expect(halfway).toBeGreaterThan(5);
    expect(halfway).toBeLessThan(55);
    expect(await missesAt(CACHE_TTL_MS * 1.1)).toBe(60);
  });

  it('serve an expired unit at once while one read refreshes it, and wait for the read only past a second TTL', async () => {
    const [imei] = await registerUnits(1);
    const loadedAt = Date.now();
    expect(await lookupUnit(imei!)).toMatchObject({ status: 'registered', state: undefined });
    const state: UnitState = { ts: loadedAt - 1000, lat: 59.3, lon: 18, speed: 0, heading: undefined, alt: undefined, sats: 9, hdop: undefined, ignition: true, movement: false, extVolts: undefined, batVolts: undefined, din: undefined, dout: undefined, odometer: undefined, engineSeconds: undefined, lastSeen: loadedAt };
    await dynamo().send(new UpdateCommand({ TableName: tableName('units'), Key: { imei }, UpdateExpression: 'SET #s = :s', ExpressionAttributeNames: { '#s': 'state' }, ExpressionAttributeValues: { ':s': state } }));

    // Expired: the cached unit answers, and a read goes out behind it.
    reads = [];
    const later = loadedAt + CACHE_TTL_MS + 1000;
    expect(await lookupUnit(imei!, later)).toMatchObject({ status: 'registered', state: undefined });
    await readsSettled();
    expect(reads.filter((r) => r.table === tableName('units'))).toHaveLength(1);
    expect(await lookupUnit(imei!, later)).toMatchObject({ state: { ts: loadedAt - 1000, ignition: true } });

    // Long unused: the read is awaited, so its answer is the one given.
    forgetUnits();
    await lookupUnit(imei!);
    await dynamo().send(new UpdateCommand({ TableName: tableName('units'), Key: { imei }, UpdateExpression: 'SET #s.#ts = :ts', ExpressionAttributeNames: { '#s': 'state', '#ts': 'ts' }, ExpressionAttributeValues: { ':ts': loadedAt - 500 } }));
    expect(await lookupUnit(imei!, Date.now() + 2 * CACHE_TTL_MS + 1000)).toMatchObject({ state: { ts: loadedAt - 500 } });
  });

  it('never serve an expired miss: an IMEI that was no unit may have just been registered', async () => {
    const imei = nextImei();
    expect(await lookupUnit(imei)).toEqual({ status: 'UnknownUnit' });
    await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { imei, accountId: ACCOUNT, name: imei, vehicleType: 'car' } }));
    expect(await lookupUnit(imei)).toEqual({ status: 'UnknownUnit' });
    expect(await lookupUnit(imei, Date.now() + MISS_TTL_MS + 1000)).toMatchObject({ status: 'registered', accountId: ACCOUNT });
  });
});
