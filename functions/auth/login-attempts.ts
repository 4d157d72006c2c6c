/**
 * The login lockout: 5 failed attempts of a login name from one client, then that client is
 * blocked for that name for 1 hour. Someone guessing from one address cannot lock the real owner
 * out of their account from another: the owner's client has its own count. Across all clients a
 * name takes at most NAME_FAILURES_PER_HOUR failures per clock hour, which bounds guessing from
 * many addresses at once; reaching it blocks the name everywhere until the hour ends.
 *
 * Per (name, client): one item `login#<name>#<client>` in the rate-limits table, { failures,
 * expiresAt }. An attempt is counted BEFORE the password is checked, with a conditional write that
 * refuses once 5 are counted. Counting afterwards would let a burst of concurrent guesses all pass
 * a "fewer than 5?" read; this way at most 5 passwords are ever tried per hour. A successful login
 * deletes the item, so only failures remain counted. Every counted attempt moves `expiresAt` to
 * one hour ahead: failures are forgotten an hour after the last one, and the block lasts an hour
 * from the 5th. TTL deletion lags, so an item past `expiresAt` is treated as gone.
 *
 * Per name: `login-name#<name>#<hour>`, counted the same way before the check and taken back by a
 * success, so the real owner's logins never count against the ceiling.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { normalizeUsername } from '../platform/adapters/username';
import { dynamo, epochSeconds, tableName } from '../platform/db';
import { TooManyRequestsError } from '../platform/errors';
import { isConditionFailure } from '../platform/conditions';

export const MAX_LOGIN_FAILURES = 5;
export const LOCKOUT_SECONDS = 3600;
/** Failures of one name from all clients together in one clock hour. */
export const NAME_FAILURES_PER_HOUR = 50;
const NAME_WINDOW_SECONDS = 3600;

interface AttemptsItem {
  key: string;
  failures: number;
  expiresAt: number;
}

const clientAttemptsKey = (loginName: string, client: string): string => `login#${normalizeUsername(loginName)}#${client}`;
const nameWindow = (nowSeconds: number): number => Math.floor(nowSeconds / NAME_WINDOW_SECONDS);
const nameAttemptsKey = (loginName: string, window: number): string => `login-name#${normalizeUsername(loginName)}#${window}`;

/**
 * Counts one attempt of `loginName` from `client` and returns how many that client has counted
 * now (this one included). Throws 429 TooManyAttempts while the client is blocked for the name,
 * or while the name has taken its failures of this hour.
 */
export async function beginLoginAttempt(loginName: string, client: string, now: Date): Promise<number> {
  const count = await countClientAttempt(clientAttemptsKey(loginName, client), now);
  await countNameAttempt(loginName, now);
  return count;
}

async function countClientAttempt(key: string, now: Date): Promise<number> {
  const nowSeconds = epochSeconds(now);
  const TableName = tableName('rateLimits');
  // Two rounds at most: the second runs after a stale item (older than an hour) was removed.
  for (let round = 0; round < 2; round++) {
    try {
      const out = await dynamo().send(
        new UpdateCommand({
          TableName,
          Key: { key },
          UpdateExpression: 'SET failures = if_not_exists(failures, :zero) + :one, expiresAt = :expires',
          ConditionExpression: 'attribute_not_exists(#key) OR (failures < :max AND expiresAt > :now)',
          ExpressionAttributeNames: { '#key': 'key' },
          ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': MAX_LOGIN_FAILURES, ':now': nowSeconds, ':expires': nowSeconds + LOCKOUT_SECONDS },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Number((out.Attributes as AttemptsItem).failures);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const out = await dynamo().send(new GetCommand({ TableName, Key: { key }, ConsistentRead: true }));
    const item = out.Item as AttemptsItem | undefined;
    if (item && item.expiresAt > nowSeconds) throw new TooManyRequestsError(item.expiresAt - nowSeconds, 'TooManyAttempts');
    // Stale: forget it, unless another request has just renewed it.
    await dynamo()
      .send(
        new DeleteCommand({
          TableName,
          Key: { key },
          ConditionExpression: 'expiresAt <= :now',
          ExpressionAttributeValues: { ':now': nowSeconds },
        }),
      )
      .catch((e: unknown) => {
        if (!isConditionFailure(e)) throw e;
      });
  }
  throw new TooManyRequestsError(LOCKOUT_SECONDS, 'TooManyAttempts');
}

async function countNameAttempt(loginName: string, now: Date): Promise<void> {
  const nowSeconds = epochSeconds(now);
  const window = nameWindow(nowSeconds);
  const windowEnd = (window + 1) * NAME_WINDOW_SECONDS;
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('rateLimits'),
        Key: { key: nameAttemptsKey(loginName, window) },
        UpdateExpression: 'SET failures = if_not_exists(failures, :zero) + :one, expiresAt = :end',
        ConditionExpression: 'attribute_not_exists(failures) OR failures < :max',
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': NAME_FAILURES_PER_HOUR, ':end': windowEnd },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new TooManyRequestsError(Math.max(1, windowEnd - nowSeconds), 'TooManyAttempts');
    throw error;
  }
}

/**
 * After a right password from `client`: that client's failures are forgotten, and its attempt no
 * longer counts against the name's hourly ceiling. After a password reset from `client`
 * (`afterReset`) the name's ceiling is lifted too: whoever holds the e-mailed link may log in at
 * once, and every guess so far was made against the old password.
 */
export async function clearLoginAttempts(loginName: string, client: string, now: Date, afterReset = false): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: tableName('rateLimits'), Key: { key: clientAttemptsKey(loginName, client) } }));
  const nameKey = nameAttemptsKey(loginName, nameWindow(epochSeconds(now)));
  if (afterReset) {
    await dynamo().send(new DeleteCommand({ TableName: tableName('rateLimits'), Key: { key: nameKey } }));
    return;
  }
  await dynamo()
    .send(
      new UpdateCommand({
        TableName: tableName('rateLimits'),
        Key: { key: nameKey },
        UpdateExpression: 'SET failures = failures - :one',
        ConditionExpression: 'failures > :zero',
        ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
      }),
    )
    .catch((error: unknown) => {
      // Nothing counted in this hour (the attempt fell in the previous one).
      if (!isConditionFailure(error)) throw error;
    });
}
