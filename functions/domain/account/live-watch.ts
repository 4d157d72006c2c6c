/**
 * Whether someone watches an account's live channel (docs/decisions/0051-live-only-while-watched.md).
 *
 * The live authorizer (functions/live/live-access.ts `authorizeLive`: IoT Core's custom authorizer
 * at every connect and every refresh, 300 s; the embedded broker at every subscription and on the
 * same refresh) marks each account whose live topics it grants: `liveWatchedUntil` (epoch ms) on
 * the accounts item, `LIVE_WATCH_MS` after the authorization, so it outlives one refresh period.
 * Ingest publishes a unit's new position live only while its account's mark is current.
 *
 * Ingest reads the mark per instance with a short cache, in the read of the account it makes for
 * the retention anyway (`accountForIngest`): an account seen unwatched is read again after
 * `LIVE_WATCH_RECHECK_MS`, one seen watched when its mark runs out (at most a minute later), so the
 * first live position after a map opens is at most about 5 s later than it would have been.
 * A mark made in this process counts at once (the embedded runtime: authorizer and ingest share it).
 * A mark that cannot be read counts as watched: live is best effort, never withheld by a failure.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../../platform/conditions';
import { dynamo, tableName } from '../../platform/db';

/** How long an authorization marks its accounts: IoT Core's refresh period (300 s) and a minute's margin. */
export const LIVE_WATCH_MS = 360_000;
/** A stored mark is renewed only when it has less than this left: one write per account a refresh period, however many browsers. */
export const LIVE_WATCH_RENEW_BELOW_MS = 300_000;
/** How long ingest trusts having read an account unwatched. */
export const LIVE_WATCH_RECHECK_MS = 5_000;
/** How long ingest trusts a watched mark at most (it is read again when it runs out, too). */
export const LIVE_WATCH_TRUST_MS = 60_000;

/** Marks made in this process: until when. */
const marked = new Map<string, number>();
/** Accounts read from the table: until when the answer is trusted, and what was read. */
const read = new Map<string, { trustedUntil: number; account: Promise<AccountForIngest> }>();

/** For tests: forget what this process marked and read. */
export function forgetLiveWatch(): void {
  marked.clear();
  read.clear();
}

/** For tests: forget what this process read of the accounts (a retention changed). */
export function forgetAccountReads(): void {
  read.clear();
}

/**
 * Marks the accounts as watched for `LIVE_WATCH_MS` from `now`: at once in this process, and on
 * each accounts item unless its mark lasts long enough already. An account that does not exist is
 * left alone (the condition); a failed write throws.
 */
export async function markLiveWatched(accountIds: Iterable<string>, now: number = Date.now()): Promise<void> {
  const until = now + LIVE_WATCH_MS;
  const ids = [...new Set(accountIds)];
  for (const id of ids) {
    marked.set(id, Math.max(marked.get(id) ?? 0, until));
    read.delete(id);
  }
  if (marked.size > 10_000) for (const [id, at] of marked) if (at <= now) marked.delete(id);
  await Promise.all(
    ids.map(async (accountId) => {
      try {
        await dynamo().send(
          new UpdateCommand({
            TableName: tableName('accounts'),
            Key: { accountId },
            UpdateExpression: 'SET liveWatchedUntil = :until',
            ConditionExpression: 'attribute_exists(accountId) AND (attribute_not_exists(liveWatchedUntil) OR liveWatchedUntil < :renew)',
            ExpressionAttributeValues: { ':until': until, ':renew': now + LIVE_WATCH_RENEW_BELOW_MS },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }),
  );
}

/** What ingest reads of an account: its retention (days, if set) and its live watch mark (epoch ms, 0 for none). */
export interface AccountForIngest {
  readonly retentionDays: number | undefined;
  readonly liveWatchedUntil: number;
}

/**
 * The account as ingest needs it, one eventually consistent read serving the retention and the
 * watch mark: trusted for `LIVE_WATCH_RECHECK_MS` when unwatched, until its mark runs out (at most
 * `LIVE_WATCH_TRUST_MS`) when watched. A failed read is not kept.
 */
export function accountForIngest(accountId: string, now: number = Date.now()): Promise<AccountForIngest> {
  const hit = read.get(accountId);
  if (hit && hit.trustedUntil > now) return hit.account;
  const account = dynamo()
    .send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId }, ProjectionExpression: 'retentionDays, liveWatchedUntil' }))
    .then((out): AccountForIngest => {
      const days = out.Item?.['retentionDays'];
      const until = out.Item?.['liveWatchedUntil'];
      return { retentionDays: typeof days === 'number' && days > 0 ? days : undefined, liveWatchedUntil: typeof until === 'number' ? until : 0 };
    });
  const entry = { trustedUntil: now + LIVE_WATCH_RECHECK_MS, account };
  if (read.size > 10_000) read.clear();
  read.set(accountId, entry);
  account.then(
    // Watched: trusted until the mark runs out (its renewal is read then), at most a minute.
    ({ liveWatchedUntil }) => {
      if (liveWatchedUntil > now) entry.trustedUntil = Math.min(liveWatchedUntil, now + LIVE_WATCH_TRUST_MS);
    },
    () => {
      if (read.get(accountId) === entry) read.delete(accountId);
    },
  );
  return account;
}

/** Whether the account's live channel is watched now (see above for how fresh the answer is); a failed read counts as watched. */
export async function isLiveWatched(accountId: string, now: number = Date.now()): Promise<boolean> {
  if ((marked.get(accountId) ?? 0) > now) return true;
  try {
    return (await accountForIngest(accountId, now)).liveWatchedUntil > now;
  } catch {
    return true;
  }
}

/** The accounts whose live topics these topic filters name (`live/<accountId>/...`). */
export function accountsOfLiveTopics(topics: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const topic of topics) {
    const [root, accountId] = topic.split('/');
    if (root === 'live' && accountId && accountId !== '+' && accountId !== '#') ids.add(accountId);
  }
  return [...ids];
}
