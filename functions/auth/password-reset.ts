/**
 * Forgot and reset password: an e-mailed link `${APP_URL}/user/reset-password?_c=<code>`, valid
 * 1 hour, single use. The code is 256 random bits; only its SHA-256 is stored
 * (`reset#<hash>` in the tokens table). Using it is one conditional DeleteItem, so of two
 * concurrent resets with one code exactly one wins. A reset ends every session and trusted
 * browser of the user: whoever asked for it may have lost control of the old password.
 */
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { RESET_LINK_SECONDS } from '../../shared/schemas/auth';
import type { Language } from '../../shared/schemas/common';
import { dynamo, epochSeconds, tableName } from '../platform/db';
import { sendTemplatedEmail } from '../platform/email/templates';
import { NotFoundError, ValidationError } from '../platform/errors';
import type { Ports } from '../platform/ports';
import { clientKey, consumeRateLimit } from '../platform/rate-limit';
import { clearLoginAttempts } from './login-attempts';
import { issueResetCode, resetItemId, resetLink, type ResetItem } from './reset-codes';
import { endEverySession } from './sessions';
import { findUser, findUserIdByEmail } from './user-repository';
import { isConditionFailure } from '../platform/conditions';

/** Reset e-mails per address: enough for a lost e-mail or two, too few to flood an inbox. */
export const RESET_PER_ADDRESS_LIMIT = 3;
/** Lookups per client address: each one tells whether an address has an account. */
export const RESET_PER_CLIENT_LIMIT = 10;
export const RESET_WINDOW_SECONDS = 3600;

export { resetLink };

export interface ForgotRequest {
  email: string;
  lang: Language;
}

export async function requestPasswordReset(request: ForgotRequest, ports: Ports, event: APIGatewayProxyEventV2): Promise<void> {
  const now = ports.clock.now();
  await consumeRateLimit(`reset-client#${clientKey(event)}`, RESET_PER_CLIENT_LIMIT, RESET_WINDOW_SECONDS, now);
  await consumeRateLimit(`reset-address#${request.email}`, RESET_PER_ADDRESS_LIMIT, RESET_WINDOW_SECONDS, now);

  const userId = await findUserIdByEmail(request.email);
  const user = userId ? await findUser(userId) : null;
  if (!user) throw new ValidationError({ email_address: ['EmailDoesNotExist'] });

  const code = await issueResetCode(user, now, RESET_LINK_SECONDS);
  // The user's own brand, whichever site asked: the link is APP_URL's either way.
  await sendTemplatedEmail('passwordReset', user.email, request.lang, user.subsiteId, { link: resetLink(code) });
}

/** Uses the code once and sets the new password (already checked against the password rule). */
export async function resetPassword(code: string, password: string, ports: Ports, event: APIGatewayProxyEventV2): Promise<void> {
  const now = ports.clock.now();
  const nowSeconds = epochSeconds(now);
  const TableName = tableName('tokens');
  const id = resetItemId(code);
  let item: ResetItem;
  try {
    const out = await dynamo().send(
      new DeleteCommand({
        TableName,
        Key: { id },
        ConditionExpression: 'attribute_exists(id) AND expiresAt > :now',
        ExpressionAttributeValues: { ':now': nowSeconds },
        ReturnValues: 'ALL_OLD',
      }),
    );
    item = out.Attributes as ResetItem;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const out = await dynamo().send(new GetCommand({ TableName, Key: { id }, ConsistentRead: true }));
    if (out.Item) throw new ValidationError({ code: ['ResetCodeExpired'] });
    throw new ValidationError({ code: ['InvalidResetCode'] });
  }

  const user = await findUser(item.userId);
  try {
    if (!user) throw new NotFoundError('UserNotFound');
    await ports.identity.setPassword(item.username, password);
  } catch (error) {
    // The user was deleted after the link was sent.
    if (error instanceof NotFoundError) throw new ValidationError({ code: ['InvalidResetCode'] });
    throw error;
  }
  await endEverySession(user, ports, now);
  // Whoever reset the password may log in at once, even after a lockout.
  await clearLoginAttempts(item.username, clientKey(event), now, true);
}
