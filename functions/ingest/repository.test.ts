/**
 * The unit lookups of the ingest path against DynamoDB Local: every batch reads its units strongly
 * consistent, so what another writer stored a moment ago (a state, a re-registration to another
 * account) is what the next batch compares with; no per-instance cache stands in between.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { storeUnitState } from '../../test/support/unit-state';
import { dynamo, tableName } from '../platform/db';
import { forgetRetention, lookupUnits } from './repository';
import { nextState } from './state';
import type { Position } from './types';

const ACCOUNT = `acc-${randomUUID()}`;
const OTHER = `acc-${randomUUID()}`;
let serial = 0;
const nextImei = () => imeiFrom(`35693813${String(400000 + serial++).padStart(6, '0')}`);
const CREATED = '2026-01-01T00:00:00.000Z';

async function register(imei: string, accountId = ACCOUNT, createdAt = CREATED): Promise<void> {
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { imei, accountId, name: imei, vehicleType: 'car', protocol: 'native', createdAt } }));
}

const fix = (ts: number): Position =>
  ({ ts, lat: 59.3, lon: 18.0, fix: true, speed: 10, heading: 0, alt: undefined, sats: 8, hdop: 1, ignition: true, movement: true } as Position);

beforeAll(async () => {
  await useLocalTables();
  await dynamo().send(new PutCommand({ TableName: tableName('accounts'), Item: { accountId: ACCOUNT, name: 'Lookup AB', retentionDays: 90 } }));
  forgetRetention();
});

describe('unit lookups', () => {
  it('tell registered units, provisioned trackers and unknown IMEIs apart, with the account retention', async () => {
    const [unit, stock, unknown] = [nextImei(), nextImei(), nextImei()] as [string, string, string];
    await register(unit);
    await dynamo().send(new PutCommand({ TableName: tableName('inventory'), Item: { imei: stock } }));
    const found = await lookupUnits([unit, stock, unknown]);
    expect(found.get(unit)).toMatchObject({ status: 'registered', retentionDays: 90, registeredAt: Date.parse(CREATED), unit: { imei: unit, accountId: ACCOUNT } });
    expect(found.get(stock)).toEqual({ status: 'Unregistered' });
    expect(found.get(unknown)).toEqual({ status: 'UnknownUnit' });
  });

  it('see a state stored a moment ago, and a re-registration at once', async () => {
    const imei = nextImei();
    await register(imei);
    const before = (await lookupUnits([imei])).get(imei);
    expect(before?.status === 'registered' && before.unit.state).toBe(undefined);
    await storeUnitState(imei, nextState(undefined, fix(1_700_000_000_000), 1_700_000_000_500));
    expect((await lookupUnits([imei])).get(imei)).toMatchObject({ unit: { state: { ts: 1_700_000_000_000, ignition: true }, rev: 1 } });
    // Removed and registered to another account: the very next lookup says so.
    await dynamo().send(new DeleteCommand({ TableName: tableName('units'), Key: { imei } }));
    await register(imei, OTHER, '2026-06-01T00:00:00.000Z');
    const after = (await lookupUnits([imei])).get(imei);
    expect(after).toMatchObject({ unit: { accountId: OTHER }, registeredAt: Date.parse('2026-06-01T00:00:00.000Z') });
    expect(after?.status === 'registered' && after.unit.state).toBe(undefined);
  });

  it('answer a units item that does not parse as unreadable, and the others of the batch as usual', async () => {
    const [good, bad] = [nextImei(), nextImei()] as [string, string];
    await register(good);
    await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { imei: bad, accountId: ACCOUNT, name: 'Broken', vehicleType: 42, protocol: 'native' } }));
    const found = await lookupUnits([good, bad]);
    expect(found.get(bad)).toEqual({ status: 'UnitUnreadable' });
    expect(found.get(good)).toMatchObject({ status: 'registered' });
  });

  it('read more than one BatchGetItem holds (100 keys)', async () => {
    const imeis = Array.from({ length: 130 }, nextImei);
    await Promise.all(imeis.map((imei) => register(imei)));
    const found = await lookupUnits(imeis);
    expect([...found.values()].filter((l) => l.status === 'registered')).toHaveLength(130);
  });
});
