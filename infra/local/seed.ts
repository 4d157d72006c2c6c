/**
 * The demo account a new user meets after `npm start`: an admin and an ordinary user, a handful
 * of units and free inventory IMEIs for trying registration. Written once, in one transaction,
 * guarded by a marker so that a second start on the same data seeds nothing.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { imeiFrom } from '../../shared/validators/imei';
import { getPorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import { ConflictError } from '../../functions/platform/errors';
import type { AccountRecord, UnitRecord, UserRecord } from '../../functions/platform/records';

export const DEMO_PASSWORD = 'Demo-pass1';
export const demoUsers = {
  admin: { username: 'demo-admin', email: 'admin@demo.example', firstName: 'Alva', lastName: 'Andersson' },
  user: { username: 'demo-user', email: 'user@demo.example', firstName: 'Erik', lastName: 'Lind' },
} as const;

const SEED_MARKER = 'seed#demo';

const demoUnits: ReadonlyArray<Pick<UnitRecord, 'name' | 'registrationNumber' | 'vehicleType'>> = [
  { name: 'Service van 1', registrationNumber: 'ABC123', vehicleType: 'car' },
  { name: 'Service van 2', registrationNumber: 'DEF456', vehicleType: 'car' },
  { name: 'Delivery lorry', registrationNumber: 'GHI789', vehicleType: 'lorry' },
  { name: 'Excavator', registrationNumber: 'JKL012', vehicleType: 'excavator' },
  { name: 'Boat trailer', registrationNumber: 'MNO345', vehicleType: 'trailer' },
];

/** IMEIs of the demo fleet: TAC 35693803, serials from 100000, with a valid check digit. */
export function demoImei(index: number): string {
  return imeiFrom(`35693803${String(100000 + index).padStart(6, '0')}`);
}
export const DEMO_UNIT_COUNT = demoUnits.length;
export const DEMO_FREE_IMEIS = 10;

export interface SeedResult {
  seeded: boolean;
}

export async function seedDemo(now = new Date()): Promise<SeedResult> {
  const db = dynamo();
  const marker = await db.send(new GetCommand({ TableName: tableName('uniques'), Key: { key: SEED_MARKER } }));
  if (marker.Item) return { seeded: false };

  const createdAt = now.toISOString();
  const accountId = randomUUID();
  const adminId = randomUUID();
  const userId = randomUUID();
  const { identity } = getPorts();

  // Identities first: a start that died half-way leaves them, and the retry reuses them.
  const ids: Record<string, string> = { [demoUsers.admin.username]: adminId, [demoUsers.user.username]: userId };
  for (const [key, u] of Object.entries(demoUsers)) {
    const id = key === 'admin' ? adminId : userId;
    try {
      await identity.createUser({ userId: id, username: u.username, email: u.email, password: DEMO_PASSWORD });
    } catch (e) {
      if (!(e instanceof ConflictError)) throw e;
      const existing = await identity.authenticate(u.username, DEMO_PASSWORD);
      if (!existing) throw new Error(`demo user ${u.username} exists with another password`, { cause: e });
      ids[u.username] = existing.userId;
    }
  }

  const account: AccountRecord = {
    accountId,
    parentId: null,
    type: 'company',
    name: 'Demo Fleet AB',
    subsiteId: 0,
    features: { realtimeMap: true, carBooking: true, rfid: true, safeReturnHome: true, basicOnly: false },
    smsCredits: 100,
    retentionDays: 395,
    createdAt,
  };
  const units: UnitRecord[] = demoUnits.map((u, i) => ({ ...u, imei: demoImei(i), accountId, protocol: 'native', createdAt }));
  const users: UserRecord[] = (['admin', 'user'] as const).map((role) => {
    const u = demoUsers[role];
    return {
      userId: ids[u.username] ?? '',
      accountId,
      username: u.username,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      lang: 'en',
      subsiteId: 0,
      isAdmin: role === 'admin',
      isSupport: false,
      enableTwoFactorAuth: false,
      ...(role === 'user' ? { unitImeis: units.slice(0, 2).map((x) => x.imei) } : {}),
      createdAt,
    };
  });

  const put = (table: Parameters<typeof tableName>[0], Item: Record<string, unknown>, key: string) => ({
    Put: { TableName: tableName(table), Item, ConditionExpression: `attribute_not_exists(#k)`, ExpressionAttributeNames: { '#k': key } },
  });
  const items = [
    put('uniques', { key: SEED_MARKER, createdAt }, 'key'),
    put('accounts', { ...account }, 'accountId'),
    ...users.flatMap((u) => [
      put('users', { ...u }, 'userId'),
      put('uniques', { key: `username#${u.username}`, userId: u.userId }, 'key'),
      put('uniques', { key: `email#${u.email}`, userId: u.userId }, 'key'),
    ]),
    ...units.flatMap((u) => [
      put('units', { ...u }, 'imei'),
      put('inventory', { imei: u.imei, registered: true, accountId, provisionedAt: createdAt }, 'imei'),
      put('uniques', { key: `imei#${u.imei}`, accountId }, 'key'),
    ]),
    ...Array.from({ length: DEMO_FREE_IMEIS }, (_, i) =>
      put('inventory', { imei: demoImei(100 + i), registered: false, provisionedAt: createdAt }, 'imei'),
    ),
  ];
  await db.send(new TransactWriteCommand({ TransactItems: items }));
  return { seeded: true };
}
