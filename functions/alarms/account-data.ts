/**
 * What the alarms capability reads of other capabilities' tables: the account (SMS credits, alert
 * language and time zone, subsite, parent), its users (to link a receiver to, with their push ids)
 * and its units (name, IMEI, and the lock a unit may carry). Reads are GetItem and Query on the
 * byAccount indexes (docs/architecture.md rule 4).
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import { queryAll } from '../platform/queries';
import { accountUserFields, getUserFields } from '../domain/user/reads';
import { NotFoundError } from '../platform/errors';
import { childAccountItems, getAccountItem } from '../domain/account/reads';
import type { AccountItem } from '../domain/account/schema';
import type { UserRecord } from '../domain/user/schema';
import { getUnitItems } from '../domain/unit/reads';
import { hasSubscription, usersWithSubscriptions } from '../push/subscriptions';

/** The account item as this capability reads it, with the alert sender (configure-alert-numbers). */
export type AlarmAccount = AccountItem;

export async function getAccountRecord(accountId: string): Promise<AlarmAccount> {
  const account = await getAccountItem(accountId, { consistent: true });
  if (!account) throw new NotFoundError('AccountNotFound');
  return account;
}

/** Sets fields of an account that exists. */
export async function setAccountFields(accountId: string, fields: Partial<Pick<AlarmAccount, 'alertLanguage' | 'alertTimeZone' | 'alertSenderId'>> | Record<'alertSenderId', string | null>): Promise<void> {
  const entries = Object.entries(fields);
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  entries.forEach(([field, value], i) => {
    names[`#f${i}`] = field;
    if (value === undefined || value === null) removes.push(`#f${i}`);
    else {
      values[`:f${i}`] = value;
      sets.push(`#f${i} = :f${i}`);
    }
  });
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' ');
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('accounts'),
      Key: { accountId },
      UpdateExpression: expression,
      ConditionExpression: 'attribute_exists(accountId)',
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    }),
  );
}

/**
 * `hasPush`: the user has a push id (the spec's OnesignalPushID), which is a subscribed browser
 * (Web Push, docs/decisions/0048-web-push.md) or a OneSignal id from the earlier mobile app.
 */
export type Member = Pick<UserRecord, 'userId' | 'accountId' | 'firstName' | 'lastName' | 'email'> & { pushId: string | null; hasPush: boolean };

const MEMBER_ATTRIBUTES = ['userId', 'accountId', 'firstName', 'lastName', 'email', 'pushId'] as const;
type MemberItem = Pick<UserRecord, (typeof MEMBER_ATTRIBUTES)[number]>;

const toMember = ({ pushId, ...user }: MemberItem, webPush: boolean): Member => ({ ...user, pushId: pushId ? pushId : null, hasPush: Boolean(pushId) || webPush });

/** Every user of the account. */
export async function accountMembers(accountId: string): Promise<Member[]> {
  const [users, subscribed] = await Promise.all([accountUserFields(accountId, MEMBER_ATTRIBUTES), usersWithSubscriptions(accountId)]);
  return users.map((user) => toMember(user, subscribed.has(user.userId)));
}

/** A user of the account, or null (another account's user is none). */
export async function accountMember(accountId: string, userId: string): Promise<Member | null> {
  const user = await getUserFields(userId, MEMBER_ATTRIBUTES);
  if (!user || user.accountId !== accountId) return null;
  return toMember(user, !user.pushId && (await hasSubscription(userId)));
}

export interface AccountUnit {
  imei: string;
  name: string;
  /**
   * Locked access (spec section 3: a locked-access flag with who locked it). Units carry no lock
   * yet; a truthy `lockedBy` on the units item counts as one, read from the raw item.
   */
  locked: boolean;
}

/** Every unit of the account with its name and lock, by IMEI. */
export async function accountUnits(accountId: string): Promise<AccountUnit[]> {
  const items = await queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('units'),
        IndexName: 'byAccount',
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
        ProjectionExpression: 'imei, #n, lockedBy',
        ExpressionAttributeNames: { '#n': 'name' },
        ExclusiveStartKey: start,
      }),
  );
  return items.map((item) => ({ imei: String(item['imei']), name: String(item['name'] ?? item['imei']), locked: Boolean(item['lockedBy']) }));
}

export interface AccountSensor {
  id: string;
  name: string;
  mac: string;
  imei: string;
}

/**
 * The BLE sensors of the account's units (the copies beside each unit, functions/sensors), by
 * unit and then by when they were added.
 */
export async function accountSensors(accountId: string, units?: readonly AccountUnit[]): Promise<AccountSensor[]> {
  const imeis = (units ?? (await accountUnits(accountId))).map((u) => u.imei);
  const items = await getUnitItems(imeis);
  const sensors: AccountSensor[] = [];
  for (const imei of imeis) {
    const unit = items.get(imei);
    if (!unit || unit instanceof Error || unit.accountId !== accountId) continue;
    const own = Object.entries(unit.sensors ?? {}).sort(([a, x], [b, y]) => x.createdAt - y.createdAt || a.localeCompare(b));
    for (const [id, s] of own) sensors.push({ id, name: s.name, mac: s.mac, imei });
  }
  return sensors;
}

/** One unit of the account, or null. */
export async function accountUnit(accountId: string, imei: string): Promise<AccountUnit | null> {
  const out = await dynamo().send(
    new GetCommand({
      TableName: tableName('units'),
      Key: { imei },
      ProjectionExpression: 'imei, accountId, #n, lockedBy',
      ExpressionAttributeNames: { '#n': 'name' },
    }),
  );
  if (!out.Item || out.Item['accountId'] !== accountId) return null;
  return { imei: String(out.Item['imei']), name: String(out.Item['name'] ?? imei), locked: Boolean(out.Item['lockedBy']) };
}

/** The accounts under a parent. */
export const childAccounts = (parentId: string): Promise<AlarmAccount[]> => childAccountItems(parentId);
