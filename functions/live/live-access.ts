/**
 * Who may read which live topics: one piece of code for both runtimes. IoT Core asks it through the
 * custom authorizer (authorize.ts), the embedded broker through infra/local/live-authorizer.ts, and
 * GET /live/connection tells the browser the same topics in advance.
 *
 * An account admin gets `live/{accountId}/units/+`. An ordinary user gets their own filter
 * `live/{accountId}/users/{userId}/units/+`, where ingest and the commands service publish each
 * unit granted to them (shared/mqtt-topics.ts `liveTopicsOf`), so the grant stays one filter
 * however many units they have: IoT Core takes at most 10 policy documents of 2,048 characters
 * from a custom authorizer, which one filter per unit exceeds at about 70 units. Up to
 * `LIVE_UNIT_TOPIC_LIMIT` granted units are also granted by their unit topics
 * `live/{accountId}/units/{imei}`, as docs/api.md has always offered; beyond that the user's filter
 * alone. The account and user ids are the caller's own, from our user record, so no topic of
 * another account or user can ever be granted.
 */
import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { liveAccountFilter, liveUnitTopic, liveUserFilter } from '../../shared/mqtt-topics';
import { IMEI_PATTERN } from '../../shared/validators/imei';
import { accountsOfLiveTopics, markLiveWatched } from '../domain/account/live-watch';
import { resolveAuth, type AuthContext } from '../platform/auth-context';
import { getPorts } from '../platform/container';
import { UnauthenticatedError } from '../platform/errors';

const CLIENT_SUFFIX = /^[A-Za-z0-9]{8,32}$/;

/** Granted units up to this many are also granted by their unit topics (the authorizer's policy stays within 4 documents). */
export const LIVE_UNIT_TOPIC_LIMIT = 25;

/**
 * What a browser subscribes to: filters that carry every unit the caller may see, each message
 * once. An ordinary user: their own filter. An admin: the account's, and their own for what is
 * addressed to them alone (a unit they locked, whose messages go to its locker only, and access
 * changes); the two never carry the same message.
 */
export function liveSubscriptionsFor(auth: Pick<AuthContext, 'accountId' | 'userId' | 'unitImeis'>): string[] {
  const own = liveUserFilter(auth.accountId, auth.userId);
  return auth.unitImeis === undefined ? [liveAccountFilter(auth.accountId), own] : [own];
}

/** Every filter the caller may subscribe to: the subscription above, and for a few units also their unit topics. */
export function liveTopicsFor(auth: Pick<AuthContext, 'accountId' | 'userId' | 'unitImeis'>): string[] {
  if (auth.unitImeis === undefined) return liveSubscriptionsFor(auth);
  // A malformed grant is skipped rather than failing the whole connection.
  const units = [...new Set(auth.unitImeis)].filter((imei) => IMEI_PATTERN.test(imei)).sort();
  const own = liveUserFilter(auth.accountId, auth.userId);
  return units.length <= LIVE_UNIT_TOPIC_LIMIT ? [own, ...units.map((imei) => liveUnitTopic(auth.accountId, imei))] : [own];
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
 * not the caller's own. Granted, the accounts whose topics it names are marked as watched
 * (functions/domain/account/live-watch.ts): ingest publishes their units' positions live while the
 * mark lasts, which every refresh of the connection renews.
 */
export async function authorizeLive(token: string, clientId: string): Promise<LiveGrant> {
  const { identity, clock } = getPorts();
  const now = clock.now();
  const auth = await resolveAuth(token, identity, now);
  if (!isClientIdOf(auth.userId, clientId)) throw new UnauthenticatedError();
  // resolveAuth has verified the token, so its expiry can be read without checking it again.
  const { exp } = decodeJwt(token);
  if (typeof exp !== 'number') throw new UnauthenticatedError();
  const topics = liveTopicsFor(auth);
  await markLiveWatched(accountsOfLiveTopics(topics), now.getTime());
  return { auth, topics, expiresInSeconds: Math.max(0, exp - Math.floor(now.getTime() / 1000)) };
}

/** Whether a subscription's topic filter is one the grant lists (filters are compared as text, as IoT Core does). */
export function allowsSubscription(grant: Pick<LiveGrant, 'topics'>, topicFilter: string): boolean {
  return grant.topics.includes(topicFilter);
}
