/**
 * The demo account's simulated fleet: which units the simulator drives, and that adding them is
 * idempotent, leaves the named units, the demo user's grants and the free inventory alone, and
 * never takes over an IMEI registered elsewhere.
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../functions/platform/db';
import { isValidImei } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { DEMO_FREE_IMEIS, DEMO_UNIT_COUNT, demoImei, demoUsers, seedDemo, seedSimulatedUnits, simulatedUnits } from './seed';

describe('the simulated fleet\'s units', () => {
  it('start with the named demo units, then further ones, with valid distinct IMEIs clear of the free inventory', () => {
    const units = simulatedUnits(300);
    expect(units.slice(0, DEMO_UNIT_COUNT).map((u) => u.imei)).toEqual(Array.from({ length: DEMO_UNIT_COUNT }, (_, i) => demoImei(i)));
    expect(units[0]?.name).toBe('Service van 1');
    expect(units[5]?.imei).toBe(demoImei(10));
    const imeis = new Set(units.map((u) => u.imei));
    expect(imeis.size).toBe(units.length);
    for (const imei of imeis) expect(isValidImei(imei)).toBe(true);
    for (let i = 0; i < DEMO_FREE_IMEIS; i++) expect(imeis.has(demoImei(100 + i))).toBe(false);
    // Two of the default twenty speak Teltonika's protocol, to exercise that path.
    expect(simulatedUnits(20).filter((u) => u.protocol === 'teltonika')).toHaveLength(2);
    expect(new Set(units.map((u) => u.registrationNumber)).size).toBe(units.length);
    // Swedish plates (no I, Q or V) for the units added here.
    for (const u of units.slice(DEMO_UNIT_COUNT)) expect(u.registrationNumber).toMatch(/^[A-HJ-PR-UW-Z]{3}\d{3}$/);
  });

  it('are the named units alone for five trackers or fewer', () => {
    expect(simulatedUnits(0)).toEqual([]);
    expect(simulatedUnits(3).map((u) => u.imei)).toEqual([demoImei(0), demoImei(1), demoImei(2)]);
  });
});

describe('seeding the simulated fleet', () => {
  let accountId: string;

  beforeAll(async () => {
    await useLocalTables();
  });

  it('needs the demo account', async () => {
    await expect(seedSimulatedUnits(20)).rejects.toThrow(/demo account is not seeded/);
  });

  it('adds the units beyond the named ones to the demo account, once', async () => {
    expect((await seedDemo()).seeded).toBe(true);
    const marker = await dynamo().send(new GetCommand({ TableName: tableName('uniques'), Key: { key: 'seed#demo' } }));
    accountId = String(marker.Item?.['accountId']);
    expect(await seedSimulatedUnits(5)).toBe(0);
    expect(await seedSimulatedUnits(20)).toBe(15);
    expect(await seedSimulatedUnits(20)).toBe(0);
    expect(await seedSimulatedUnits(22)).toBe(2);

    const units = await dynamo().send(
      new QueryCommand({ TableName: tableName('units'), IndexName: 'byAccount', KeyConditionExpression: 'accountId = :a', ExpressionAttributeValues: { ':a': accountId } }),
    );
    expect(units.Items?.map((u) => u['imei']).sort()).toEqual(simulatedUnits(22).map((u) => u.imei).sort());
    const plumber = units.Items?.find((u) => u['name'] === 'Plumber van');
    expect(plumber).toMatchObject({ protocol: 'teltonika', vehicleType: 'van', registrationNumber: 'WXY234' });

    const imei = demoImei(10);
    const [stock, claim] = await Promise.all([
      dynamo().send(new GetCommand({ TableName: tableName('inventory'), Key: { imei } })),
      dynamo().send(new GetCommand({ TableName: tableName('uniques'), Key: { key: `imei#${imei}` } })),
    ]);
    expect(stock.Item).toMatchObject({ registered: true, accountId });
    expect(claim.Item).toMatchObject({ accountId });

    const free = await dynamo().send(new GetCommand({ TableName: tableName('inventory'), Key: { imei: demoImei(100) } }));
    expect(free.Item).toMatchObject({ registered: false });
    const claimUser = await dynamo().send(new GetCommand({ TableName: tableName('uniques'), Key: { key: `username#${demoUsers.user.username}` } }));
    const user = await dynamo().send(new GetCommand({ TableName: tableName('users'), Key: { userId: claimUser.Item?.['userId'] } }));
    expect(user.Item?.['unitImeis']).toEqual([demoImei(0), demoImei(1)]);
  });

  it('never takes over an IMEI that another account registered', async () => {
    const spec = simulatedUnits(23)[22];
    const imei = spec?.imei ?? '';
    await dynamo().send(new PutCommand({ TableName: tableName('uniques'), Item: { key: `imei#${imei}`, accountId: 'someone-else' } }));
    expect(await seedSimulatedUnits(23)).toBe(0);
    const unit = await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei } }));
    expect(unit.Item).toBeUndefined();
  });
});
