/**
 * The demo account a new user meets after `npm start`: an admin and an ordinary user, a handful
 * of units and free inventory IMEIs for trying registration. Written once, in one transaction,
 * guarded by a marker so that a second start on the same data seeds nothing.
 *
 * The simulated fleet (infra/local/simulator) drives the named units first and, when it has more
 * trackers, further units of the demo account, added by `seedSimulatedUnits` with idempotent
 * conditional writes whenever the simulator starts (its size is a setting, not part of the seed).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { imeiFrom } from '../../shared/validators/imei';
import { localDayOf } from '../../shared/local-time';
import type { FuelType } from '../../shared/schemas/unit-editor';
import { getPorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import { ConflictError, ValidationError } from '../../functions/platform/errors';
import { createReceiver } from '../../functions/alarms/receiver-repository';
import { listAccountUnits } from '../../functions/domain/unit/reads';
import { getAccountItem } from '../../functions/domain/account/reads';
import type { AccountRecord } from '../../functions/domain/account/schema';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import type { UserRecord } from '../../functions/domain/user/schema';
import { transactionConditionFailed } from '../../functions/platform/conditions';
import { accountSearchKeys } from '../../functions/domain/account/search-keys';

export const DEMO_PASSWORD = 'Demo-pass1';
export const demoUsers = {
  admin: { username: 'demo-admin', email: 'admin@demo.example', firstName: 'Alva', lastName: 'Andersson' },
  user: { username: 'demo-user', email: 'user@demo.example', firstName: 'Erik', lastName: 'Lind' },
} as const;

const SEED_MARKER = 'seed#demo';
const SUPPORT_SEED_MARKER = 'seed#support';

/** Support staff of the embedded runtime, in a support account of their own (docs/decisions/0026-organisation-profiles-support.md). */
export const demoSupportUser = { username: 'demo-support', email: 'support@demo.example', firstName: 'Stina', lastName: 'Support' } as const;

type DemoUnit = Pick<UnitRecord, 'name' | 'registrationNumber' | 'vehicleType'> & { protocol?: UnitRecord['protocol'] };

const demoUnits: readonly DemoUnit[] = [
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
    // The market price of litre fuels, and electricity from a date (the fuel consumption report).
    fuelPrice: 19.5,
    fuelPrices: [{ fuelType: 'electricity', validFrom: localDayOf(now.getTime() - 365 * 86_400_000, 'Europe/Stockholm'), price: 2.4 }],
    createdAt,
  };
  const units: UnitRecord[] = demoUnits.map((u, i) => ({ ...u, ...demoFuel(u.vehicleType, i), imei: demoImei(i), accountId, protocol: u.protocol ?? 'native', createdAt }));
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

  const viewersOf = (imei: string) => {
    const viewers = users.filter((u) => u.unitImeis?.includes(imei)).map((u) => u.userId);
    return viewers.length ? { viewers: new Set(viewers) } : {};
  };
  const put = (table: Parameters<typeof tableName>[0], Item: Record<string, unknown>, key: string) => ({
    Put: { TableName: tableName(table), Item, ConditionExpression: `attribute_not_exists(#k)`, ExpressionAttributeNames: { '#k': key } },
  });
  const items = [
    put('uniques', { key: SEED_MARKER, accountId, createdAt }, 'key'),
    put('accounts', { ...account, ...accountSearchKeys(account) }, 'accountId'),
    ...users.flatMap((u) => [
      put('users', { ...u }, 'userId'),
      put('uniques', { key: `username#${u.username}`, userId: u.userId }, 'key'),
      put('uniques', { key: `email#${u.email}`, userId: u.userId }, 'key'),
    ]),
    ...units.flatMap((u) => [
      // A unit granted to ordinary users names them, so ingest publishes it on their own live topics too.
      put('units', { ...u, ...viewersOf(u.imei) }, 'imei'),
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

/**
 * The demo support user in a support account of their own, written once (a marker of its own, so
 * that data seeded before support existed gets it too), and the demo account's search keys, which
 * data seeded before support's search existed lacks (an idempotent update on every start).
 */
export async function seedSupport(now = new Date()): Promise<{ seeded: boolean }> {
  const db = dynamo();
  const demoAccount = await demoAccountId();
  if (demoAccount) {
    const account = await getAccountItem(demoAccount);
    const keys = account ? accountSearchKeys(account) : {};
    if (account && Object.keys(keys).length) {
      const entries = Object.entries(keys);
      await db.send(
        new UpdateCommand({
          TableName: tableName('accounts'),
          Key: { accountId: demoAccount },
          UpdateExpression: `SET ${entries.map((_, i) => `#k${i} = :v${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#k${i}`, k])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
        }),
      );
    }
  }
  const marker = await db.send(new GetCommand({ TableName: tableName('uniques'), Key: { key: SUPPORT_SEED_MARKER } }));
  if (marker.Item) return { seeded: false };
  const createdAt = now.toISOString();
  const accountId = randomUUID();
  let userId: string = randomUUID();
  const u = demoSupportUser;
  try {
    await getPorts().identity.createUser({ userId, username: u.username, email: u.email, password: DEMO_PASSWORD });
  } catch (e) {
    if (!(e instanceof ConflictError)) throw e;
    const existing = await getPorts().identity.authenticate(u.username, DEMO_PASSWORD);
    if (!existing) throw new Error(`demo user ${u.username} exists with another password`, { cause: e });
    userId = existing.userId;
  }
  const account: AccountRecord = {
    accountId,
    parentId: null,
    type: 'company',
    name: 'Portal Support',
    subsiteId: 0,
    features: { realtimeMap: false, carBooking: false, rfid: false, safeReturnHome: false, basicOnly: false },
    smsCredits: 0,
    retentionDays: 395,
    createdAt,
  };
  const user: UserRecord = {
    userId, accountId, username: u.username, email: u.email, firstName: u.firstName, lastName: u.lastName,
    lang: 'en', subsiteId: 0, isAdmin: false, isSupport: true, enableTwoFactorAuth: false, createdAt,
  };
  const put = (table: Parameters<typeof tableName>[0], Item: Record<string, unknown>, key: string) => ({
    Put: { TableName: tableName(table), Item, ConditionExpression: `attribute_not_exists(#k)`, ExpressionAttributeNames: { '#k': key } },
  });
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        put('uniques', { key: SUPPORT_SEED_MARKER, accountId, createdAt }, 'key'),
        // The support account is not a customer: no search keys, so support never finds itself.
        put('accounts', { ...account }, 'accountId'),
        put('users', { ...user }, 'userId'),
        put('uniques', { key: `username#${u.username}`, userId }, 'key'),
        put('uniques', { key: `email#${u.email}`, userId }, 'key'),
      ],
    }),
  );
  return { seeded: true };
}

/** More units of the demo fleet, driven by the simulator when it has more trackers than named units. */
const moreUnits: readonly DemoUnit[] = [
  { name: 'Service van 3', registrationNumber: 'PRS618', vehicleType: 'van' },
  { name: 'Taxi 12', registrationNumber: 'STU901', vehicleType: 'car' },
  { name: 'Plumber van', registrationNumber: 'WXY234', vehicleType: 'van', protocol: 'teltonika' },
  { name: 'Refrigerated lorry', registrationNumber: 'YZA567', vehicleType: 'lorry' },
  { name: 'Sales car 1', registrationNumber: 'BCD890', vehicleType: 'car' },
  { name: 'City bus 4', registrationNumber: 'EFG123', vehicleType: 'bus' },
  { name: 'Electrician van', registrationNumber: 'HJK456', vehicleType: 'van' },
  { name: 'Sales car 2', registrationNumber: 'KLM789', vehicleType: 'car' },
  { name: 'Tow truck', registrationNumber: 'NOP012', vehicleType: 'lorry' },
  { name: 'Pool car', registrationNumber: 'RST345', vehicleType: 'car', protocol: 'teltonika' },
  { name: 'Courier van', registrationNumber: 'TUW678', vehicleType: 'van' },
  { name: 'Home care car 1', registrationNumber: 'WXZ901', vehicleType: 'car' },
  { name: 'Home care car 2', registrationNumber: 'ZAB234', vehicleType: 'car' },
  { name: 'Flatbed lorry', registrationNumber: 'CDE567', vehicleType: 'lorry' },
  { name: 'Manager car', registrationNumber: 'FGH890', vehicleType: 'car' },
];

/**
 * A demo unit's fuel by its kind, so the fuel consumption and environmental reports have figures:
 * petrol cars (every fourth electric), diesel vans, lorries and buses, in litres (kWh) per 10 km
 * and per hour of idling; trailers and the excavator have none (no distance-based fuel).
 */
export function demoFuel(vehicleType: string, index: number): { fuelType?: FuelType; consumption?: number; idleConsumption?: number } {
  switch (vehicleType) {
    case 'car':
      return index % 4 === 3 ? { fuelType: 'electricity', consumption: 1.8 } : { fuelType: 'petrol', consumption: 0.65, idleConsumption: 0.6 };
    case 'van':
      return { fuelType: 'diesel', consumption: 0.85, idleConsumption: 0.8 };
    case 'lorry':
      return { fuelType: 'diesel', consumption: 3.2, idleConsumption: 2.5 };
    case 'bus':
      return { fuelType: 'diesel', consumption: 3.8, idleConsumption: 3 };
    default:
      return {};
  }
}

export interface DemoUnitSpec {
  imei: string;
  name: string;
  registrationNumber: string;
  vehicleType: string;
  protocol: UnitRecord['protocol'];
}

/** Letters of Swedish registration plates (I, Q, V, Å, Ä and Ö are not used). */
const PLATE_LETTERS = 'ABCDEFGHJKLMNOPRSTUWXYZ';

/**
 * The units the first `count` simulated trackers sit in: the named demo units, then `moreUnits`,
 * then numbered cars and vans. IMEIs run demoImei(0..4) for the named ones and demoImei(10..) for
 * the rest, skipping demoImei(100..109), the free inventory.
 */
export function simulatedUnits(count: number): DemoUnitSpec[] {
  return Array.from({ length: Math.max(0, count) }, (_, i): DemoUnitSpec => {
    if (i < demoUnits.length) {
      const u = demoUnits[i] as DemoUnit;
      return { imei: demoImei(i), name: u.name, registrationNumber: u.registrationNumber ?? '', vehicleType: u.vehicleType, protocol: u.protocol ?? 'native' };
    }
    const k = i - demoUnits.length;
    const serial = 10 + k < 100 ? 10 + k : 20 + k;
    const more = moreUnits[k];
    if (more) return { imei: demoImei(serial), name: more.name, registrationNumber: more.registrationNumber ?? '', vehicleType: more.vehicleType, protocol: more.protocol ?? 'native' };
    const n = k - moreUnits.length + 1;
    const L = PLATE_LETTERS.length;
    const plate = `${PLATE_LETTERS[n % L]}${PLATE_LETTERS[Math.floor(n / L) % L]}${PLATE_LETTERS[Math.floor(n / (L * L)) % L]}${String(n % 1000).padStart(3, '0')}`;
    return { imei: demoImei(serial), name: `Fleet ${n % 2 ? 'car' : 'van'} ${n}`, registrationNumber: plate, vehicleType: n % 2 ? 'car' : 'van', protocol: 'native' };
  });
}

/** The demo account's id: kept on the seed marker (older data: found through the demo admin). */
async function demoAccountId(): Promise<string | null> {
  const db = dynamo();
  const marker = await db.send(new GetCommand({ TableName: tableName('uniques'), Key: { key: SEED_MARKER } }));
  if (typeof marker.Item?.['accountId'] === 'string') return marker.Item['accountId'];
  const claim = await db.send(new GetCommand({ TableName: tableName('uniques'), Key: { key: `username#${demoUsers.admin.username}` } }));
  const userId = claim.Item?.['userId'];
  if (typeof userId !== 'string') return null;
  const user = await db.send(new GetCommand({ TableName: tableName('users'), Key: { userId }, ProjectionExpression: 'accountId' }));
  return typeof user.Item?.['accountId'] === 'string' ? user.Item['accountId'] : null;
}

/** Writes in flight at once; each unit is one small transaction. */
const UNIT_WRITE_CONCURRENCY = 16;

/**
 * Makes sure the first `count` simulated trackers are units of the demo account (the named ones
 * are seeded with it). Each further unit is its own conditional transaction (unit, inventory,
 * IMEI claim), so running this again, or after a crash half-way, adds only what is missing and
 * never takes over an IMEI registered elsewhere. Returns how many units it added.
 */
export async function seedSimulatedUnits(count: number, now = new Date()): Promise<number> {
  const specs = simulatedUnits(count).slice(demoUnits.length);
  if (!specs.length) return 0;
  const accountId = await demoAccountId();
  if (!accountId) throw new Error('the demo account is not seeded: the simulated fleet needs its units');
  const createdAt = now.toISOString();
  const write = async (spec: DemoUnitSpec): Promise<boolean> => {
    const unit: UnitRecord = { ...spec, ...demoFuel(spec.vehicleType, Number(spec.imei.slice(-4))), accountId, createdAt };
    const put = (table: Parameters<typeof tableName>[0], Item: Record<string, unknown>, key: string) => ({
      Put: { TableName: tableName(table), Item, ConditionExpression: 'attribute_not_exists(#k)', ExpressionAttributeNames: { '#k': key } },
    });
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [
            put('units', { ...unit }, 'imei'),
            put('inventory', { imei: spec.imei, registered: true, accountId, provisionedAt: createdAt }, 'imei'),
            put('uniques', { key: `imei#${spec.imei}`, accountId }, 'key'),
          ],
        }),
      );
      return true;
    } catch (e) {
      if (transactionConditionFailed(e)) return false;
      throw e;
    }
  };
  let added = 0;
  for (let i = 0; i < specs.length; i += UNIT_WRITE_CONCURRENCY) {
    const done = await Promise.all(specs.slice(i, i + UNIT_WRITE_CONCURRENCY).map(write));
    added += done.filter(Boolean).length;
  }
  return added;
}

/**
 * The demo admin as an alarm receiver of every demo unit, security alarms only (a safe return home
 * 'not home' alarm, a geofence's), by e-mail to the dev outbox: written with the demo on its first
 * start with simulated trackers, so that `npm start` shows an alarm arriving without setting up a
 * receiver first. A receiver the admin already is (the e-mail's claim) is left as it is.
 */
export async function seedDemoAlarmReceiver(now = new Date()): Promise<boolean> {
  const accountId = await demoAccountId();
  if (!accountId) return false;
  const claim = await dynamo().send(new GetCommand({ TableName: tableName('uniques'), Key: { key: `username#${demoUsers.admin.username}` } }));
  const adminId = claim.Item?.['userId'];
  if (typeof adminId !== 'string') return false;
  const units = await listAccountUnits(accountId);
  try {
    await createReceiver(
      accountId,
      {
        name: `${demoUsers.admin.firstName} ${demoUsers.admin.lastName}`,
        email: demoUsers.admin.email,
        countryCode: null,
        phone: null,
        pushNotification: false,
        securityAlarm: true,
        functionAlarm: false,
        memberId: adminId,
        gpsImeis: units.map((u) => u.imei),
        bleIds: [],
      },
      now,
    );
    return true;
  } catch (error) {
    if (error instanceof ValidationError) return false;
    throw error;
  }
}
