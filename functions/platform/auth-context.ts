/**
 * Who is calling: the bearer token is checked by the IdentityProvider, the session must still
 * exist (logout deletes it), and the account id and roles come from our user record, never from
 * the request.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Language } from '../../shared/schemas/common';
import { dynamo, tableName } from './db';
import { UnauthenticatedError } from './errors';
import type { IdentityProvider } from './ports';
import type { ProfileFeature } from '../../shared/schemas/organisation';
import type { AccountFeatures } from '../../shared/features';
import { z } from 'zod';
import { parseAccountFields } from '../domain/account/schema';
import { isCurrentSession, parseSessionItem, sessionItemId } from '../domain/session/schema';
import { parseUserItem, type UserItem } from '../domain/user/schema';

export interface AuthContext {
  userId: string;
  accountId: string;
  sessionId: string;
  /** When the session ends (epoch seconds). */
  sessionExpiresAt: number;
  username: string;
  isAdmin: boolean;
  isSupport: boolean;
  subsiteId: number;
  lang: Language;
  /** Units an ordinary user was granted; undefined for admins, who see the whole account. */
  unitImeis: readonly string[] | undefined;
  /** The feature profile limiting an ordinary user; undefined for admins (never limited) and users without one. */
  featureProfileId: string | undefined;
  /** The API key making the call (functions/platform/api-key-auth.ts); undefined for a login's token. */
  apiKeyId?: string;
}

export function bearerToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  return match?.[1] ?? null;
}

export async function resolveAuth(token: string, identity: IdentityProvider, now: Date): Promise<AuthContext> {
  const principal = await identity.verifyAccessToken(token);
  if (!principal) throw new UnauthenticatedError();
  const db = dynamo();
  const [session, user] = await Promise.all([
    db.send(new GetCommand({ TableName: tableName('tokens'), Key: { id: sessionItemId(principal.sessionId) } })),
    db.send(new GetCommand({ TableName: tableName('users'), Key: { userId: principal.userId } })),
  ]);
  const sessionItem = session.Item ? parseSessionItem(session.Item) : undefined;
  const userItem = user.Item ? parseUserItem(user.Item) : undefined;
  // A password change since the session began ends it, as logout does.
  if (!userItem || userItem.userId !== principal.userId || !isCurrentSession(sessionItem, userItem, now)) throw new UnauthenticatedError();
  return authContextOf(userItem, { sessionId: principal.sessionId, expiresAt: sessionItem.expiresAt });
}

/** Who a user is to the handlers, in a session (a request's, or a job's made up on their behalf). */
export function authContextOf(userItem: UserItem, session: { sessionId: string; expiresAt: number }): AuthContext {
  return {
    userId: userItem.userId,
    accountId: userItem.accountId,
    sessionId: session.sessionId,
    sessionExpiresAt: session.expiresAt,
    username: userItem.username,
    isAdmin: userItem.isAdmin,
    isSupport: userItem.isSupport,
    subsiteId: userItem.subsiteId,
    lang: userItem.lang,
    unitImeis: userItem.isAdmin ? undefined : (userItem.unitImeis ?? []),
    featureProfileId: userItem.isAdmin || typeof userItem.featureProfileId !== 'string' ? undefined : userItem.featureProfileId,
  };
}

/**
 * The feature flags of the caller's account, for a route that names a feature (functions/platform/http.ts).
 * Read on every such request and never cached, so a feature switched off counts at once.
 * Undefined when the account has no record or no flags.
 *
 * Here rather than in a module of its own: the bundle reader (infra/bundling/resource-usage.ts)
 * counts the tables of this module for the functions that serve members only, and a feature is
 * never required on a public route.
 */
export async function accountFeatures(accountId: string): Promise<AccountFeatures | undefined> {
  const out = await dynamo().send(
    new GetCommand({ TableName: tableName('accounts'), Key: { accountId }, ProjectionExpression: 'features' }),
  );
  return out.Item ? parseAccountFields(out.Item, ['features']).features : undefined;
}

/**
 * The features of a user's feature profile (functions/organisation), for a route a profile can
 * limit (shared/feature-profiles.ts): read from the accounts item on every such request, so a
 * changed profile counts at once. Null when the profile is gone (a deleted profile limits no one).
 */
const profileFeaturesProjection = z.object({ featureProfiles: z.record(z.string(), z.object({ features: z.array(z.unknown()).optional() })).optional() });

export async function featureProfileFeatures(accountId: string, profileId: string): Promise<readonly ProfileFeature[] | null> {
  const out = await dynamo().send(
    new GetCommand({
      TableName: tableName('accounts'),
      Key: { accountId },
      ProjectionExpression: '#profiles.#id.features',
      ExpressionAttributeNames: { '#profiles': 'featureProfiles', '#id': profileId },
    }),
  );
  const features = profileFeaturesProjection.safeParse(out.Item ?? {}).data?.featureProfiles?.[profileId]?.features;
  return features ? features.filter((f): f is ProfileFeature => typeof f === 'string') : null;
}
