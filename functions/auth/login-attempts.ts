/**
 * The login lockout (DECISIONS.md): 5 failed attempts per login name, then blocked for 1 hour.
 *
 * One item per login name in the rate-limits table, `login#<name>`: { failures, expiresAt }.
 * An attempt is counted BEFORE the password is checked, with a conditional write that refuses
 * once 5 are counted. Counting afterwards would let a burst of concurrent guesses all pass a
 * "fewer than 5?" read; this way at most 5 passwords are ever tried per hour. A successful login
 * deletes the item, so only failures remain counted. Every counted attempt moves `expiresAt` to
 * one hour ahead: failures are forgotten an hour after the last one, and the block lasts an hour
 * from the 5th. TTL deletion lags, so an item past `expiresAt` is treated as gone.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { normalizeUsername } from '../platform/adapters/username';
import { dynamo, epochSeconds, tableName } from '../platform/db';
import { TooManyRequestsError } from '../platform/errors';

export const MAX_LOGIN_FAILURES = 5;
export const LOCKOUT_SECONDS = 3600;

interface AttemptsItem {
  key: string;
  failures: number;
  expiresAt: number;
}

const attemptsKey = (loginName: string): string => `login#${normalizeUsername(loginName)}`;
const isConditionFailure = (error: unknown): boolean => error instanceof Error && error.name === 'ConditionalCheckFailedException';

/**
 * Counts one attempt for `loginName` and returns how many are counted now (this one included).
 * Throws 429 TooManyAttempts while the name is blocked.
 */
export async function beginLoginAttempt(loginName: string, now: Date): Promise<number> {
  const key = attemptsKey(loginName);
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

/** After a right password (or a password reset): the failures are forgotten. */
export async function clearLoginAttempts(loginName: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: tableName('rateLimits'), Key: { key: attemptsKey(loginName) } }));
}
