/**
 * Who may read which live topics: one piece of code for both runtimes. IoT Core asks it through the
 * custom authorizer (authorize.ts), the embedded broker through infra/local/live-authorizer.ts, and
 * GET /live/connection tells the browser the same topics in advance.
 *
 * An account admin gets `live/{accountId}/units/+`; an ordinary user one `live/{accountId}/units/{imei}`
 * per granted unit. The account id is the caller's own, from our user record, so no topic of another
 * account can ever be granted.
 */
import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { liveAccountFilter, liveTopic } from '../platform/adapters/topics';
import { resolveAuth, type AuthContext } from '../platform/auth-context';
import { getPorts } from '../platform/container';
import { UnauthenticatedError } from '../platform/errors';

const IMEI = /^\d{15}$/;
const CLIENT_SUFFIX = /^[A-Za-z0-9]{8,32}$/;

export function liveTopicsFor(auth: Pick<AuthContext, 'accountId' | 'unitImeis'>): string[] {
  if (auth.unitImeis === undefined) return [liveAccountFilter(auth.accountId)];
  // A malformed grant is skipped rather than failing the whole connection.
  return [...new Set(auth.unitImeis)].filter((imei) => IMEI.test(imei)).map((imei) => liveTopic(auth.accountId, imei));
}

/**
 * A client id for one browser tab: unique per connection (MQTT disconnects an older client with the
 * same id), and bound to the user, so nobody can take over, and thereby cut off, another user's id.
 */
export function newLiveClientId(userId: string): string {
  return `web-${userId}-${randomBytes(12).toString('hex')}`;
}

export function isClientIdOf(userId: string, clientId: string): boolean {
  const prefix = `web-${userId}-`;
  return clientId.startsWith(prefix) && CLIENT_SUFFIX.test(clientId.slice(prefix.length));
}

export interface LiveGrant {
  auth: AuthContext;
  /** Topic filters the connection may subscribe to, exactly as listed. */
  topics: string[];
  /** Seconds until the access token expires: the connection must not outlive it. */
  expiresInSeconds: number;
}

/**
 * The topics the holder of an access token may read over a connection with this client id. Refused
 * (UnauthenticatedError) for an invalid or expired token, an ended session, or a client id that is
 * not the caller's own.
 */
export async function authorizeLive(token: string, clientId: string): Promise<LiveGrant> {
  const { identity, clock } = getPorts();
  const now = clock.now();
  const auth = await resolveAuth(token, identity, now);
  if (!isClientIdOf(auth.userId, clientId)) throw new UnauthenticatedError();
  // resolveAuth has verified the token, so its expiry can be read without checking it again.
  const { exp } = decodeJwt(token);
  if (typeof exp !== 'number') throw new UnauthenticatedError();
  return { auth, topics: liveTopicsFor(auth), expiresInSeconds: Math.max(0, exp - Math.floor(now.getTime() / 1000)) };
}

/** Whether a subscription's topic filter is one the grant lists (filters are compared as text, as IoT Core does). */
export function allowsSubscription(grant: Pick<LiveGrant, 'topics'>, topicFilter: string): boolean {
  return grant.topics.includes(topicFilter);
}
