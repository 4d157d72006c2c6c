/** User records and the login-name claims that lead to them (GetItem only, never a Scan). */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import { NotFoundError } from '../platform/errors';
import { emailClaimKey, parseUserItem, type UserItem } from '../domain/user/schema';
import { getUserItem } from '../domain/user/reads';
import { isConditionFailure } from '../platform/conditions';
import type { LandingPage } from '../../shared/schemas/fleet-overview';


export const findUser = (userId: string): Promise<UserItem | null> => getUserItem(userId);

export async function getUser(userId: string): Promise<UserItem> {
  const user = await findUser(userId);
  if (!user) throw new NotFoundError('UserNotFound');
  return user;
}

/** The user an e-mail address belongs to, through its uniqueness claim. */
export async function findUserIdByEmail(email: string): Promise<string | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('uniques'), Key: { key: emailClaimKey(email) } }));
  const userId = out.Item?.['userId'];
  return typeof userId === 'string' ? userId : null;
}

export interface ProfileChanges {
  firstName: string;
  lastName: string;
  /** E.164, or null to remove the number. */
  phone: string | null;
  lang: UserItem['lang'];
  enableTwoFactorAuth: boolean;
  /** Absent: unchanged. */
  landingPage?: LandingPage | undefined;
}

/** The profile update found two-factor login turned on, which its guard required to be off. */
export class TwoFactorTurnedOn extends Error {
  override name = 'TwoFactorTurnedOn';
}

export async function updateProfile(
  userId: string,
  changes: ProfileChanges,
  now: Date,
  guard?: { twoFactorWasOff: true },
): Promise<UserItem> {
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: tableName('users'),
        Key: { userId },
        UpdateExpression:
          'SET firstName = :first, lastName = :last, lang = :lang, enableTwoFactorAuth = :tfa, updatedAt = :at' +
          (changes.landingPage ? ', landingPage = :landing' : '') +
          (changes.phone ? ', phone = :phone' : ' REMOVE phone'),
        ConditionExpression: 'attribute_exists(userId)' + (guard ? ' AND enableTwoFactorAuth <> :on' : ''),
        ExpressionAttributeValues: {
          ...(guard ? { ':on': true } : {}),
          ':first': changes.firstName,
          ':last': changes.lastName,
          ':lang': changes.lang,
          ':tfa': changes.enableTwoFactorAuth,
          ':at': now.toISOString(),
          ...(changes.phone ? { ':phone': changes.phone } : {}),
          ...(changes.landingPage ? { ':landing': changes.landingPage } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return parseUserItem(out.Attributes ?? {});
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (guard && (await findUser(userId))) throw new TwoFactorTurnedOn();
    throw new NotFoundError('UserNotFound');
  }
}

/** The alert opt-out page: no more alerts, and no more push notifications when asked. */
export async function optOutOfAlerts(userId: string, removePush: boolean, now: Date): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('users'),
        Key: { userId },
        UpdateExpression: `SET alertsOptOut = :yes, updatedAt = :at${removePush ? ' REMOVE pushId' : ''}`,
        ConditionExpression: 'attribute_exists(userId)',
        ExpressionAttributeValues: { ':yes': true, ':at': now.toISOString() },
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('UserNotFound');
    throw error;
  }
}
