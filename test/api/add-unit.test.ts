/**
 * Adding a unit from the inventory end to end on the embedded runtime: every validation key (the
 * IMEI as registration checks it, name, vehicle type, the users granted), the unit, its grants and
 * the inventory written together, the granted user seeing it at once, races (admins of one account,
 * two accounts, and a registration of the same IMEI: exactly one wins, nothing half-written), and
 * that ordinary users and other accounts get nothing.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddedUnit, GrantableUsers } from '../../shared/schemas/add-unit';
import type { UnitListItem } from '../../shared/schemas/units';
import { imeiFrom } from '../../shared/validators/imei';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UserRecord } from '../../functions/domain/user/schema';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei, demoUsers } from '../../infra/local/seed';
import { callAs, demoCallers, type Caller } from '../support/api-caller';
import { wizardPrivate } from '../support/registration';
import { startRuntime } from '../support/runtime';

let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;

const ADD = '/api/v1/administration/units';
const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const add = (body: unknown, who: Caller = admin) => call<AddedUnit>('POST', ADD, who, body);
const valid = (imei: string, extra: Record<string, unknown> = {}) => ({ imei, name: 'Boat 1', vehicleType: 'boat', userIds: [], ...extra });
const errorsOf = async (body: unknown, who: Caller = admin) => {
  const reply = await add(body, who);
  expect(reply.status, JSON.stringify(reply.body)).toBe(422);
  return reply.body.errors;
};
const wrongCheckDigit = (imei: string) => imei.slice(0, 14) + String((Number(imei[14]) + 1) % 10);
const item = async (table: 'units' | 'inventory' | 'uniques' | 'users', key: Record<string, string>) =>
  (await dynamo().send(new GetCommand({ TableName: tableName(table), Key: key, ConsistentRead: true }))).Item;

/** An ordinary user record of an account (no login needed to be granted a unit). */
async function ordinaryUser(accountId: string): Promise<string> {
  const userId = randomUUID();
  const record: UserRecord = {
    userId,
    accountId,
    username: `driver-${userId.slice(0, 8)}`,
    email: `driver-${userId.slice(0, 8)}@example.se`,
    firstName: 'Dora',
    lastName: 'Driver',
    lang: 'sv',
    subsiteId: 0,
    isAdmin: false,
    isSupport: false,
    enableTwoFactorAuth: false,
    createdAt: new Date().toISOString(),
  };
  await dynamo().send(new PutCommand({ TableName: tableName('users'), Item: record }));
  return userId;
}

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user, other } = await demoCallers());
});

afterAll(async () => {
  await rt?.stop();
});

describe('validation', () => {
  it('names every missing field with its key', async () => {
    expect(await errorsOf({})).toEqual({ imei: ['SpecifyValidUnitImei'], name: ['SpecifyUnitName'], vehicleType: ['SelectVehicleType'] });
    expect(await errorsOf({ imei: '', name: '  ', vehicleType: '' })).toEqual({
      imei: ['SpecifyValidUnitImei'],
      name: ['SpecifyUnitName'],
      vehicleType: ['SelectVehicleType'],
    });
  });

  it.each([
    ['35693803x00101', 'ImeiNotNumeric'],
    ['3569380310010', 'ImeiNot15Digits'],
    [wrongCheckDigit(demoImei(101)), 'InvalidImei'],
  ])('checks the IMEI %s as registration does: %s', async (imei, key) => {
    expect(await errorsOf(valid(imei))).toEqual({ imei: [key] });
  });

  it('refuses an IMEI that is not in the inventory, or registered to this or another account', async () => {
    expect(await errorsOf(valid(imeiFrom('35693803900000')))).toEqual({ imei: ['ImeiNotInSystem'] });
    expect(await errorsOf(valid(demoImei(0)))).toEqual({ imei: ['ImeiAlreadyRegistered'] });
    const theirs = await add(valid(demoImei(109)), other);
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    expect(await errorsOf(valid(demoImei(109)))).toEqual({ imei: ['ImeiAlreadyRegistered'] });
  });

  it('limits the name and the vehicle type', async () => {
    expect(await errorsOf(valid(demoImei(101), { name: 'x'.repeat(51) }))).toEqual({ name: ['UnitNameTooLong'] });
    expect(await errorsOf(valid(demoImei(101), { vehicleType: 'rocket' }))).toEqual({ vehicleType: ['SelectVehicleType'] });
  });

  it('grants only to ordinary users of the account, at most 90', async () => {
    expect(await errorsOf(valid(demoImei(101), { userIds: [admin.userId] }))).toEqual({ userIds: ['GrantUserNotFound'] });
    expect(await errorsOf(valid(demoImei(101), { userIds: [user.userId] }), other)).toEqual({ userIds: ['GrantUserNotFound'] });
    expect(await errorsOf(valid(demoImei(101), { userIds: ['nobody'] }))).toEqual({ userIds: ['GrantUserNotFound'] });
    const many = Array.from({ length: 91 }, (_, i) => `u-${i}`);
    expect(await errorsOf(valid(demoImei(101), { userIds: many }))).toEqual({ userIds: ['TooManyGrantUsers'] });
    // Nothing of the refused requests was written.
    expect(await item('inventory', { imei: demoImei(101) })).toMatchObject({ registered: false });
    expect(await item('units', { imei: demoImei(101) })).toBeUndefined();
  });
});

describe('adding', () => {
  it('adds the tracker to the account, named, typed and granted to the chosen users in one go', async () => {
    const driver = await ordinaryUser(admin.accountId);
    const reply = await add(valid(demoImei(101), { name: '  Speedboat  ', userIds: [user.userId, driver, user.userId] }));
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.data).toEqual({ imei: demoImei(101), name: 'Speedboat', vehicleType: 'boat', userIds: [user.userId, driver] });

    expect(await item('inventory', { imei: demoImei(101) })).toMatchObject({ registered: true, accountId: admin.accountId });
    expect(await item('uniques', { key: `imei#${demoImei(101)}` })).toMatchObject({ accountId: admin.accountId });
    const unit = await item('units', { imei: demoImei(101) });
    expect(unit).toMatchObject({ accountId: admin.accountId, name: 'Speedboat', vehicleType: 'boat', protocol: 'native' });
    expect([...(unit?.['viewers'] as Set<string>)].sort()).toEqual([user.userId, driver].sort());
    expect((await item('users', { userId: driver }))?.['unitImeis']).toEqual([demoImei(101)]);
    expect((await item('users', { userId: user.userId }))?.['unitImeis']).toContain(demoImei(101));

    // The granted user sees it at once, and so does the admin; another account does not.
    const seenBy = async (who: Caller) => ((await call<UnitListItem[]>('GET', '/api/v1/user/units', who)).body.data ?? []).map((u) => u.imei);
    expect(await seenBy(user)).toContain(demoImei(101));
    expect(await seenBy(admin)).toContain(demoImei(101));
    expect(await seenBy(other)).not.toContain(demoImei(101));
  });

  it('adds a unit granted to nobody but the admins', async () => {
    const reply = await add({ imei: demoImei(104), name: 'Loader', vehicleType: 'loader' });
    expect(reply.status).toBe(201);
    expect((await item('units', { imei: demoImei(104) }))?.['viewers']).toBeUndefined();
  });
});

describe('races', () => {
  it('of one account\'s admins adding one IMEI at once, exactly one wins', async () => {
    const replies = await Promise.all(Array.from({ length: 4 }, (_, i) => add(valid(demoImei(102), { name: `Racer ${i}`, userIds: [user.userId] }))));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of replies.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual({ imei: ['ImeiAlreadyRegistered'] });
    }
    // The user got the unit once.
    const granted = ((await item('users', { userId: user.userId }))?.['unitImeis'] as string[]).filter((i) => i === demoImei(102));
    expect(granted).toHaveLength(1);
  });

  it('of two accounts adding one IMEI at once, exactly one gets it', async () => {
    const [mine, theirs] = await Promise.all([add(valid(demoImei(103))), add(valid(demoImei(103)), other)]);
    expect([mine.status, theirs.status].sort()).toEqual([201, 422]);
    const winner = mine.status === 201 ? admin : other;
    expect(await item('units', { imei: demoImei(103) })).toMatchObject({ accountId: winner.accountId });
    expect(await item('inventory', { imei: demoImei(103) })).toMatchObject({ accountId: winner.accountId });
  });

  it('of adding and registering one IMEI at once, exactly one wins', async () => {
    const email = `race-${randomUUID().slice(0, 8)}@example.se`;
    const [added, registered] = await Promise.all([
      add(valid(demoImei(105))),
      callAs(rt.url, 'POST', '/api/v1/register-account', null, wizardPrivate(demoImei(105), email, 'Race-pass1')),
    ]);
    expect([added.status, registered.status].filter((s) => s === 201 || s === 200)).toHaveLength(1);
    const unit = await item('units', { imei: demoImei(105) });
    expect(unit?.['accountId']).toBe(added.status === 201 ? admin.accountId : (await item('inventory', { imei: demoImei(105) }))?.['accountId']);
    if (added.status !== 201) expect(added.body.errors).toEqual({ imei: ['ImeiAlreadyRegistered'] });
  });
});

describe('access', () => {
  it('is for account admins only', async () => {
    const reply = await add(valid(demoImei(106)), user);
    expect(reply.status).toBe(403);
    expect(reply.body.message).toBe('NoAccessToAdministratorPages');
    expect((await call('GET', `${ADD}/grantable-users`, user)).status).toBe(403);
    expect((await add(valid(demoImei(106)), null as unknown as Caller)).status).toBe(401);
    expect(await item('inventory', { imei: demoImei(106) })).toMatchObject({ registered: false });
  });

  it("lists the account's ordinary users to grant, never admins or another account's users", async () => {
    const mine = await call<GrantableUsers>('GET', `${ADD}/grantable-users`, admin);
    expect(mine.status).toBe(200);
    const ids = mine.body.data?.users.map((u) => u.id) ?? [];
    expect(ids).toContain(user.userId);
    expect(ids).not.toContain(admin.userId);
    expect(mine.body.data?.users.find((u) => u.id === user.userId)).toEqual({
      id: user.userId,
      firstName: demoUsers.user.firstName,
      lastName: demoUsers.user.lastName,
      email: demoUsers.user.email,
    });
    const theirs = await call<GrantableUsers>('GET', `${ADD}/grantable-users`, other);
    expect(theirs.body.data?.users).toEqual([]);
  });
});
