/**
 * Trusted browsers: a browser that passed the e-mailed code with "trust this browser" skips the
 * code for 180 days. What it presents is a secret the server issued, never something it can
 * compute about itself (a device fingerprint is known to any page the user visits, a phishing
 * page included).
 *
 * - The token is 256 random bits. Only its SHA-256 is stored (`trust#<hash>` in the tokens table),
 *   bound to the user and to the user's session generation, so a password change or reset, which
 *   raises the generation, ends every trusted browser together with every session.
 * - It is answered as `data.trustToken` for API clients and set as the HttpOnly, Secure,
 *   SameSite=Strict cookie `trusted_browser` limited to the API's path, so the web app never holds
 *   it in script-readable storage. One browser may be trusted by several users: the cookie keeps
 *   the newest few tokens, dot-separated (base64url has no dots).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { TRUSTED_BROWSER_SECONDS } from '../../shared/schemas/auth';
import { dynamo, epochSeconds, tableName } from '../platform/db';
import { sessionGenerationOf, type UserItem } from '../domain/user/schema';
import { randomSecret, sha256Hex } from './secrets';

export const TRUST_COOKIE = 'trusted_browser';
/** Tokens one browser's cookie keeps (several people sharing a computer). */
export const TRUST_COOKIE_MAX_TOKENS = 5;
const TRUST_COOKIE_PATH = '/api/v1';
/** A token is 43 base64url characters; anything else is not ours and is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

interface TrustItem {
  id: string;
  userId: string;
  /** The user's session generation when the browser was trusted. */
  generation: number;
  createdAt: string;
  expiresAt: number;
}

const trustItemId = (token: string): string => `trust#${sha256Hex(token)}`;

/** Trusts the browser that just passed the code; the token goes back to it and is not kept. */
export async function issueTrustToken(user: UserItem, now: Date): Promise<string> {
  const token = randomSecret();
  const item: TrustItem = {
    id: trustItemId(token),
    userId: user.userId,
    generation: sessionGenerationOf(user),
    createdAt: now.toISOString(),
    expiresAt: epochSeconds(now) + TRUSTED_BROWSER_SECONDS,
  };
  await dynamo().send(new PutCommand({ TableName: tableName('tokens'), Item: item, ConditionExpression: 'attribute_not_exists(id)' }));
  return token;
}

/** The well-formed tokens a request presents: the body's `trust_token` first, then the cookie's. */
export function presentedTrustTokens(bodyToken: string | undefined, event: Pick<APIGatewayProxyEventV2, 'cookies'>): string[] {
  const fromCookie = (event.cookies ?? [])
    .map((cookie) => cookie.trim())
    .filter((cookie) => cookie.startsWith(`${TRUST_COOKIE}=`))
    .flatMap((cookie) => cookie.slice(TRUST_COOKIE.length + 1).split('.'));
  const all = [...(bodyToken ? [bodyToken] : []), ...fromCookie].filter((token) => TOKEN_SHAPE.test(token));
  return [...new Set(all)].slice(0, TRUST_COOKIE_MAX_TOKENS + 1);
}

/** Whether one of the tokens was issued to this user, since the last password change, and is unexpired. */
export async function isTrustedBrowser(user: UserItem, tokens: readonly string[], now: Date): Promise<boolean> {
  if (!tokens.length) return false;
  const found = await Promise.all(
    tokens.map(async (token) => {
      const out = await dynamo().send(new GetCommand({ TableName: tableName('tokens'), Key: { id: trustItemId(token) } }));
      return out.Item as TrustItem | undefined;
    }),
  );
  const nowSeconds = epochSeconds(now);
  const generation = sessionGenerationOf(user);
  return found.some((item) => !!item && item.userId === user.userId && item.generation === generation && item.expiresAt > nowSeconds);
}

/** The Set-Cookie value that adds `token` to the browser's trusted tokens (newest first). */
export function trustCookie(token: string, previous: readonly string[]): string {
  const tokens = [...new Set([token, ...previous])].slice(0, TRUST_COOKIE_MAX_TOKENS);
  return `${TRUST_COOKIE}=${tokens.join('.')}; Path=${TRUST_COOKIE_PATH}; Max-Age=${TRUSTED_BROWSER_SECONDS}; HttpOnly; Secure; SameSite=Strict`;
}
