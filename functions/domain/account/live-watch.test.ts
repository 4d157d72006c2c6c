/**
 * The live watch mark on DynamoDB Local: what the authorizer writes, when it is renewed, how long
 * ingest trusts what it read (an unwatched account for 5 s, a watched one until its mark runs out),
 * and its expiry.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useLocalTables } from '../../../test/support/local-tables';
import { dynamo, tableName } from '../../platform/db';
import {
  LIVE_WATCH_MS,
  LIVE_WATCH_RECHECK_MS,
  LIVE_WATCH_RENEW_BELOW_MS,
  LIVE_WATCH_TRUST_MS,
  accountsOfLiveTopics,
  forgetLiveWatch,
  isLiveWatched,
  markLiveWatched,
} from './live-watch';

const T0 = Date.parse('2026-11-30T10:00:00Z');
let n = 0;

async function newAccount(): Promise<string> {
  const accountId = `acc-watch-${++n}`;
  await dynamo().send(new PutCommand({ TableName: tableName('accounts'), Item: { accountId, name: 'Watched AB' } }));
  return accountId;
}

const stored = async (accountId: string) =>
  (await dynamo().send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId }, ConsistentRead: true }))).Item;

/** A mark written by another process (an authorizer elsewhere): this one has not seen it. */
const markElsewhere = (accountId: string, until: number) =>
  dynamo().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { accountId }, UpdateExpression: 'SET liveWatchedUntil = :u', ExpressionAttributeValues: { ':u': until } }));

beforeAll(async () => {
  await useLocalTables();
});
beforeEach(() => forgetLiveWatch());

describe('the live watch mark', () => {
  it('is written on the account by an authorization, renewed only when it has less than the renewal margin left', async () => {
    const accountId = await newAccount();
    await markLiveWatched([accountId], T0);
    expect((await stored(accountId))?.['liveWatchedUntil']).toBe(T0 + LIVE_WATCH_MS);
    expect((await stored(accountId))?.['name']).toBe('Watched AB');

    // Another browser a minute later: the mark lasts long enough, nothing is written.
    await markLiveWatched([accountId], T0 + 50_000);
    expect((await stored(accountId))?.['liveWatchedUntil']).toBe(T0 + LIVE_WATCH_MS);
    // The next refresh (300 s later): renewed.
    const refresh = T0 + LIVE_WATCH_MS - LIVE_WATCH_RENEW_BELOW_MS + 1;
    await markLiveWatched([accountId], refresh);
    expect((await stored(accountId))?.['liveWatchedUntil']).toBe(refresh + LIVE_WATCH_MS);
  });

  it('never creates an account that does not exist', async () => {
    await markLiveWatched(['acc-missing'], T0);
    expect(await stored('acc-missing')).toBeUndefined();
  });

  it('counts at once in the process that marked it, and expires LIVE_WATCH_MS after the last authorization', async () => {
    const accountId = await newAccount();
    expect(await isLiveWatched(accountId, T0)).toBe(false);
    await markLiveWatched([accountId], T0 + 1000);
    expect(await isLiveWatched(accountId, T0 + 1000)).toBe(true);
    expect(await isLiveWatched(accountId, T0 + LIVE_WATCH_MS)).toBe(true);
    // Another instance (nothing marked or read in it) sees the stored mark, and its expiry.
    forgetLiveWatch();
    expect(await isLiveWatched(accountId, T0 + LIVE_WATCH_MS)).toBe(true);
    forgetLiveWatch();
    expect(await isLiveWatched(accountId, T0 + 1000 + LIVE_WATCH_MS)).toBe(false);
  });

  it('is read again LIVE_WATCH_RECHECK_MS after an account was seen unwatched: a map opened elsewhere counts within seconds', async () => {
    const accountId = await newAccount();
    expect(await isLiveWatched(accountId, T0)).toBe(false);
    await markElsewhere(accountId, T0 + 1000 + LIVE_WATCH_MS);
    // Trusted for a few seconds: no read, still unwatched.
    expect(await isLiveWatched(accountId, T0 + LIVE_WATCH_RECHECK_MS - 1)).toBe(false);
    expect(await isLiveWatched(accountId, T0 + LIVE_WATCH_RECHECK_MS)).toBe(true);
    expect(LIVE_WATCH_RECHECK_MS).toBeLessThanOrEqual(5_000);
  });

  it('trusts a watched mark until it runs out, at most LIVE_WATCH_TRUST_MS, then reads the renewal or the expiry', async () => {
    const accountId = await newAccount();
    await markElsewhere(accountId, T0 + LIVE_WATCH_MS);
    expect(await isLiveWatched(accountId, T0)).toBe(true);
    // The browser closed: the stored mark is gone, yet what was read is trusted for a while.
    await markElsewhere(accountId, 0);
    expect(await isLiveWatched(accountId, T0 + LIVE_WATCH_TRUST_MS - 1)).toBe(true);
    expect(await isLiveWatched(accountId, T0 + LIVE_WATCH_TRUST_MS)).toBe(false);

    // A mark about to run out is read again when it does: renewed by then, it stays watched.
    const other = await newAccount();
    await markElsewhere(other, T0 + 10_000);
    expect(await isLiveWatched(other, T0)).toBe(true);
    await markElsewhere(other, T0 + 9_000 + LIVE_WATCH_MS);
    expect(await isLiveWatched(other, T0 + 10_000)).toBe(true);
    await markElsewhere(other, T0 + 5_000);
    expect(await isLiveWatched(other, T0 + 10_000 + LIVE_WATCH_TRUST_MS)).toBe(false);
  });

  it('names the accounts of the live topics a grant holds', () => {
    expect(accountsOfLiveTopics(['live/acc-1/units/+', 'live/acc-1/users/u-1/units/+', 'live/acc-2/units/356938035643809'])).toEqual(['acc-1', 'acc-2']);
    expect(accountsOfLiveTopics(['live/+/units/+', 'trackers/1/telemetry', 'live'])).toEqual([]);
  });
});
