/**
 * Single-use password codes: the code of a reset link (password-reset.ts, valid 1 hour) and of a
 * new user's welcome link (functions/administration, valid 7 days) are the same kind of secret.
 * The code is 256 random bits; only its SHA-256 is stored (`reset#<hash>` in the tokens table),
 * and POST /reset-password uses it once with one conditional delete.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { RESET_CODE_PARAM } from '../../shared/schemas/auth';
import { dynamo, epochSeconds, tableName } from '../platform/db';
import { getEnv } from '../platform/env';
import { randomSecret, sha256Hex } from './secrets';

export interface ResetItem {
  id: string;
  userId: string;
  username: string;
  createdAt: string;
  expiresAt: number;
}

export const resetItemId = (code: string): string => `reset#${sha256Hex(code)}`;

export function resetLink(code: string, appUrl: string = getEnv().APP_URL): string {
  const url = new URL('/user/reset-password', appUrl);
  url.searchParams.set(RESET_CODE_PARAM, code);
  return url.href;
}

/** Stores a new code for the user, valid `seconds`, and answers the code (to go into a link only). */
export async function issueResetCode(user: { userId: string; username: string }, now: Date, seconds: number): Promise<string> {
  const code = randomSecret();
  const item: ResetItem = {
    id: resetItemId(code),
    userId: user.userId,
    username: user.username,
    createdAt: now.toISOString(),
    expiresAt: epochSeconds(now) + seconds,
  };
  await dynamo().send(new PutCommand({ TableName: tableName('tokens'), Item: item, ConditionExpression: 'attribute_not_exists(id)' }));
  return code;
}
