/**
 * The account's settings that are support's (docs/decisions/0031-support-settings-and-sms-credits.md):
 * the basic-subscription-only flag, each unit's subscription type and report frequency lock, and
 * the SMS credits. Each change is one DynamoDB transaction with its support log entry, so a change
 * is never made unlogged and a log entry never names a change that was not made.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { SupportAction } from '../../shared/schemas/support';
import type { AuthContext } from '../platform/auth-context';
import { cancellationCodes, isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { NotFoundError } from '../platform/errors';
import { getUnitItem } from '../domain/unit/reads';
import type { UnitItem } from '../domain/unit/schema';
import { findAccount, getSupportAccount } from './account-search';
import { supportLogPut, type SupportLogInput } from './support-log';

type Caller = Pick<AuthContext, 'userId' | 'username'>;
type Update = NonNullable<NonNullable<TransactWriteCommandInput['TransactItems']>[number]['Update']>;

/** A transaction that lost to another one touching the same item is tried again this often. */
const CONFLICT_TRIES = 6;

/**
 * Writes the change and its log entry together. The change's condition failing (the item is
 * gone) is 404; a conflict with a concurrent transaction on the same item is retried (nothing of
 * a cancelled transaction was written, so trying again cannot count anything twice).
 */
async function writeLogged(caller: Caller, change: Update, log: SupportLogInput, at: Date): Promise<void> {
  const entry = await supportLogPut(caller, log, at);
  for (let attempt = 1; ; attempt++) {
    try {
      await dynamo().send(new TransactWriteCommand({ TransactItems: [{ Update: change }, { Put: entry }] }));
      return;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes?.[0] === 'ConditionalCheckFailed') throw new NotFoundError();
      if (!codes?.includes('TransactionConflict') || attempt >= CONFLICT_TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 15 * 2 ** attempt));
    }
  }
}

const onOff = (value: boolean) => (value ? 'on' : 'off');

/** Sets the account's basic-subscription-only flag. */
export async function setBasicOnly(caller: Caller, accountId: string, basicOnly: boolean, at: Date): Promise<void> {
  const account = await getSupportAccount(accountId);
  const before = account.features?.basicOnly === true;
  await writeLogged(
    caller,
    {
      TableName: tableName('accounts'),
      Key: { accountId },
      UpdateExpression: 'SET features.basicOnly = :v',
      // `features` exists on every account (registration, the seed).
      ConditionExpression: 'attribute_exists(accountId) AND attribute_exists(features)',
      ExpressionAttributeValues: { ':v': basicOnly },
    },
    { action: 'setBasicOnly', account: { accountId, name: account.name }, details: `basicOnly ${onOff(before)} → ${onOff(basicOnly)}` },
    at,
  );
}

type UnitSetting = 'subscriptionType' | 'reportFrequencyChange';
const unitSettingActions: Readonly<Record<UnitSetting, SupportAction>> = {
  subscriptionType: 'setSubscriptionType',
  reportFrequencyChange: 'setReportFrequencyChange',
};
const shown = (value: string | null | undefined) => value ?? '–';

/** Sets a unit's subscription type (null: not set) or report frequency lock, whichever account it belongs to. */
export async function setUnitSetting<F extends UnitSetting>(caller: Caller, imei: string, field: F, value: NonNullable<UnitItem[F]> | null, at: Date): Promise<void> {
  const unit = await getUnitItem(imei);
  if (!unit) throw new NotFoundError();
  const account = await findAccount(unit.accountId);
  await writeLogged(
    caller,
    {
      TableName: tableName('units'),
      Key: { imei },
      UpdateExpression: value === null ? 'REMOVE #f' : 'SET #f = :v',
      // Still the same account's unit (a unit moved meanwhile is not changed under the other account's log).
      ConditionExpression: 'accountId = :a',
      ExpressionAttributeNames: { '#f': field },
      ExpressionAttributeValues: { ':a': unit.accountId, ...(value === null ? {} : { ':v': value }) },
    },
    {
      action: unitSettingActions[field],
      account: account ? { accountId: account.accountId, name: account.name } : null,
      details: `${unit.name} (${imei}): ${shown(unit[field])} → ${shown(value)}`,
    },
    at,
  );
}

/**
 * Adds SMS credits: an atomic increment (two additions at once both count) that also re-arms the
 * out-of-credits e-mail (functions/events/deliver-alert.ts), then re-arms the low-balance warning
 * when the balance is back at or above the account's threshold. Answers the balance after it.
 */
export async function addSmsCredits(caller: Caller, accountId: string, add: number, note: string, at: Date): Promise<number> {
  const account = await getSupportAccount(accountId);
  await writeLogged(
    caller,
    {
      TableName: tableName('accounts'),
      Key: { accountId },
      UpdateExpression: 'ADD smsCredits :add REMOVE smsCreditsOutNotifiedAt',
      ConditionExpression: 'attribute_exists(accountId)',
      ExpressionAttributeValues: { ':add': add },
    },
    { action: 'addSmsCredits', account: { accountId, name: account.name }, details: `+${add}: ${note}` },
    at,
  );
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('accounts'),
        Key: { accountId },
        UpdateExpression: 'REMOVE smsLowBalanceWarnedAt',
        ConditionExpression: 'attribute_exists(smsLowBalanceWarnedAt) AND (attribute_not_exists(smsLowBalanceThreshold) OR smsCredits >= smsLowBalanceThreshold)',
      }),
    );
  } catch (error) {
    // Not warned, or still below the threshold: the warning stays as it is.
    if (!isConditionFailure(error)) throw error;
  }
  const out = await dynamo().send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId }, ProjectionExpression: 'smsCredits', ConsistentRead: true }));
  const balance = out.Item?.['smsCredits'];
  return typeof balance === 'number' ? balance : 0;
}
