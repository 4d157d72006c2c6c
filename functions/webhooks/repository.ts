/**
 * Webhooks in their table (shared/tables.ts `webhooks`, partition `accountId`):
 *
 * - `hook#<id>`: a subscription: url, events, active, why and when it was paused, its signing
 *   secret, the failures since its last success, and `rev`, raised by every change an admin makes.
 *   An active subscription to unitOffline carries `watch`/`watchKey` (the sparse `watching` index).
 * - `count`: how many subscriptions the account has; a create raises it in the transaction that
 *   puts the subscription, conditional on the limit, so two creates racing cannot pass it.
 * - `delivery#<id>`: a delivery: its body (fixed at its first attempt, so every retry sends the
 *   same bytes), status, attempts and the last answer; `deliveryHook`/`deliveryOrder` put it in the
 *   sparse `byHook` index; it expires after 30 days.
 * - `pausemail#<hook>#<pause>#<user>`: the claim of one pause e-mail to one admin.
 */
import { randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { WEBHOOK_DELIVERIES_MAX, WEBHOOKS_MAX, type Webhook, type WebhookEventType } from '../../shared/schemas/webhooks';
import { webhookMessageKeys as keys } from '../../shared/schemas/webhooks-messages';
import { cancellationCodes, isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors';
import { queryAll } from '../platform/queries';

export const DELIVERY_RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
const WATCH_OFFLINE = 'unitOffline';

export interface HookItem {
  accountId: string;
  sk: string;
  id: string;
  url: string;
  events: WebhookEventType[];
  active: boolean;
  pausedReason?: 'failing' | 'admin';
  pausedAt?: string;
  /** Set when the portal paused it: the pause's id, which the e-mail claims name. */
  pauseId?: string;
  /** The pause e-mails went out (each admin's is claimed on its own). */
  pauseMailDone?: boolean;
  secret: string;
  consecutiveFailures: number;
  /** Epoch ms of the first failed attempt since the last success. */
  failingSince?: number;
  rev: number;
  createdAt: string;
  updatedAt: string;
  watch?: string;
  watchKey?: string;
}

export interface DeliveryItem {
  accountId: string;
  sk: string;
  id: string;
  hookId: string;
  deliveryHook: string;
  deliveryOrder: string;
  type: WebhookEventType;
  sourceId: string;
  test: boolean;
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  /** The attempt being sent (claimed until `claimUntil`), absent between attempts. */
  inFlight?: number;
  claimUntil?: number;
  /** The next attempt's number once the last one failed and it is queued. */
  nextAttempt?: number;
  nextAttemptAt?: string;
  lastAttemptAt?: string;
  responseCode?: number;
  responseTimeMs?: number;
  responseExcerpt?: string;
  error?: string;
  createdAt: string;
  expiresAt: number;
}

export const hookKey = (id: string) => `hook#${id}`;
export const deliveryKey = (id: string) => `delivery#${id}`;
const COUNT_KEY = 'count';

export const newHookId = (): string => `wh_${randomBytes(8).toString('hex')}`;

const watchFields = (accountId: string, id: string, active: boolean, events: readonly WebhookEventType[]) =>
  active && events.includes('unitOffline') ? { watch: WATCH_OFFLINE, watchKey: `${accountId}#${id}` } : {};

export function toWebhook(item: HookItem): Webhook {
  return {
    id: item.id,
    url: item.url,
    events: item.events,
    active: item.active,
    pausedReason: item.active ? null : (item.pausedReason ?? 'admin'),
    pausedAt: item.active ? null : (item.pausedAt ?? null),
    consecutiveFailures: item.consecutiveFailures ?? 0,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

export async function listHooks(accountId: string, options: { consistent?: boolean } = {}): Promise<HookItem[]> {
  const items = await queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('webhooks'),
        KeyConditionExpression: 'accountId = :a AND begins_with(sk, :p)',
        ExpressionAttributeValues: { ':a': accountId, ':p': 'hook#' },
        ConsistentRead: options.consistent ?? false,
        ExclusiveStartKey: start,
      }),
  );
  return (items as unknown as HookItem[]).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export async function findHook(accountId: string, id: string): Promise<HookItem | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('webhooks'), Key: { accountId, sk: hookKey(id) }, ConsistentRead: true }));
  return (out.Item as HookItem | undefined) ?? null;
}

/** The caller's subscription; another account's id or none: 404. */
export async function getHook(accountId: string, id: string): Promise<HookItem> {
  const hook = await findHook(accountId, id);
  if (!hook) throw new NotFoundError(keys.WebhookNotFound);
  return hook;
}

export async function createHook(accountId: string, input: { url: string; events: WebhookEventType[]; active: boolean; secret: string }, now: Date): Promise<HookItem> {
  const id = newHookId();
  const at = now.toISOString();
  const item: HookItem = {
    accountId,
    sk: hookKey(id),
    id,
    url: input.url,
    events: input.events,
    active: input.active,
    ...(input.active ? {} : { pausedReason: 'admin' as const, pausedAt: at }),
    secret: input.secret,
    consecutiveFailures: 0,
    rev: 1,
    createdAt: at,
    updatedAt: at,
    ...watchFields(accountId, id, input.active, input.events),
  };
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName('webhooks'),
              Key: { accountId, sk: COUNT_KEY },
              UpdateExpression: 'ADD #count :one',
              ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
              ExpressionAttributeNames: { '#count': 'count' },
              ExpressionAttributeValues: { ':one': 1, ':max': WEBHOOKS_MAX },
            },
          },
          { Put: { TableName: tableName('webhooks'), Item: item, ConditionExpression: 'attribute_not_exists(sk)' } },
        ],
      }),
    );
  } catch (error) {
    if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') throw new ValidationError({ webhooks: [keys.WebhookLimitReached] }, keys.WebhookLimitReached);
    if (cancellationCodes(error)?.includes('TransactionConflict')) throw new ConflictError();
    throw error;
  }
  return item;
}

/** An admin's change, conditional on the subscription as read (409 when another change came first). */
export async function updateHook(hook: HookItem, input: { url: string; events: WebhookEventType[]; active?: boolean | undefined }, now: Date): Promise<void> {
  const active = input.active ?? hook.active;
  const at = now.toISOString();
  const names: Record<string, string> = { '#url': 'url', '#events': 'events', '#active': 'active', '#rev': 'rev', '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':url': input.url, ':events': input.events, ':active': active, ':rev': hook.rev, ':next': hook.rev + 1, ':at': at };
  const set = ['#url = :url', '#events = :events', '#active = :active', '#rev = :next', '#updatedAt = :at'];
  const remove: string[] = [];
  const watch = watchFields(hook.accountId, hook.id, active, input.events);
  if (watch.watch) {
    set.push('watch = :watch', 'watchKey = :watchKey');
    values[':watch'] = watch.watch;
    values[':watchKey'] = watch.watchKey;
  } else remove.push('watch', 'watchKey');
  if (active && !hook.active) {
    // Resumed: the failures start again, and a later pause sends its own e-mail.
    set.push('consecutiveFailures = :zero');
    values[':zero'] = 0;
    remove.push('pausedReason', 'pausedAt', 'pauseId', 'pauseMailDone', 'failingSince');
  } else if (!active && hook.active) {
    set.push('pausedReason = :admin', 'pausedAt = :at');
    values[':admin'] = 'admin';
  }
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('webhooks'),
        Key: { accountId: hook.accountId, sk: hook.sk },
        UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
        ConditionExpression: 'attribute_exists(sk) AND #rev = :rev',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError('Conflict');
    throw error;
  }
}

export async function deleteHook(hook: HookItem): Promise<void> {
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: tableName('webhooks'), Key: { accountId: hook.accountId, sk: hook.sk }, ConditionExpression: 'attribute_exists(sk)' } },
          {
            Update: {
              TableName: tableName('webhooks'),
              Key: { accountId: hook.accountId, sk: COUNT_KEY },
              UpdateExpression: 'ADD #count :minus',
              ExpressionAttributeNames: { '#count': 'count' },
              ExpressionAttributeValues: { ':minus': -1 },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (cancellationCodes(error)?.[0] === 'ConditionalCheckFailed') throw new NotFoundError(keys.WebhookNotFound);
    throw error;
  }
}

/** Active subscriptions to unitOffline of every account (the `watching` index), for the offline job. */
export async function offlineWatchers(): Promise<{ accountId: string; id: string }[]> {
  const items = await queryAll(
    (start) =>
      new QueryCommand({
        TableName: tableName('webhooks'),
        IndexName: 'watching',
        KeyConditionExpression: 'watch = :w',
        ExpressionAttributeValues: { ':w': WATCH_OFFLINE },
        ExclusiveStartKey: start,
      }),
  );
  return items.map((i) => ({ accountId: String(i['accountId']), id: String(i['id']) }));
}

// Deliveries

export async function createDelivery(
  input: Pick<DeliveryItem, 'accountId' | 'id' | 'hookId' | 'type' | 'sourceId' | 'test' | 'body'>,
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  const item: DeliveryItem = {
    ...input,
    sk: deliveryKey(input.id),
    deliveryHook: input.hookId,
    deliveryOrder: `${at}#${input.id}`,
    status: 'pending',
    attempts: 0,
    createdAt: at,
    expiresAt: Math.floor((now.getTime() + DELIVERY_RETENTION_DAYS * DAY_MS) / 1000),
  };
  try {
    await dynamo().send(new PutCommand({ TableName: tableName('webhooks'), Item: item, ConditionExpression: 'attribute_not_exists(sk)' }));
  } catch (error) {
    // Created before: the same event again (a source processed twice, a message delivered twice).
    if (!isConditionFailure(error)) throw error;
  }
}

export async function getDelivery(accountId: string, id: string): Promise<DeliveryItem | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('webhooks'), Key: { accountId, sk: deliveryKey(id) }, ConsistentRead: true }));
  return (out.Item as DeliveryItem | undefined) ?? null;
}

/**
 * Claims attempt `attempt` of a pending delivery: the attempt before it is done, or this attempt's
 * claim ran out (its sender died). A duplicate queue message, or the same event emitted twice,
 * finds the attempt claimed or done and sends nothing.
 */
export async function claimAttempt(delivery: DeliveryItem, attempt: number, now: Date, claimMs: number): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('webhooks'),
        Key: { accountId: delivery.accountId, sk: delivery.sk },
        UpdateExpression: 'SET attempts = :n, inFlight = :n, claimUntil = :until, lastAttemptAt = :at REMOVE nextAttempt, nextAttemptAt',
        ConditionExpression: '#status = :pending AND ((attempts = :prev AND attribute_not_exists(inFlight)) OR (inFlight = :n AND claimUntil < :now))',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':n': attempt,
          ':prev': attempt - 1,
          ':until': now.getTime() + claimMs,
          ':now': now.getTime(),
          ':at': now.toISOString(),
          ':pending': 'pending',
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export interface AttemptRecord {
  attempt: number;
  outcome: 'succeeded' | 'failed' | 'retry';
  responseCode: number | null;
  responseTimeMs: number | null;
  responseExcerpt: string | null;
  error: string | null;
  nextAttemptAt?: Date;
}

/** The result of the claimed attempt; conditional on the claim, so a late sender whose claim was taken over changes nothing. */
export async function recordAttempt(delivery: DeliveryItem, result: AttemptRecord): Promise<boolean> {
  const set = ['#status = :status'];
  const remove = ['inFlight', 'claimUntil'];
  const values: Record<string, unknown> = { ':status': result.outcome === 'retry' ? 'pending' : result.outcome, ':n': result.attempt };
  // By name placeholder: `error` is one of DynamoDB's reserved words.
  const names: Record<string, string> = { '#status': 'status' };
  const field = (name: string, value: string | number | null) => {
    names[`#${name}`] = name;
    if (value === null) remove.push(`#${name}`);
    else {
      set.push(`#${name} = :${name}`);
      values[`:${name}`] = value;
    }
  };
  field('responseCode', result.responseCode);
  field('responseTimeMs', result.responseTimeMs);
  field('responseExcerpt', result.responseExcerpt);
  field('error', result.error);
  if (result.outcome === 'retry' && result.nextAttemptAt) {
    set.push('nextAttempt = :next', 'nextAttemptAt = :nextAt');
    values[':next'] = result.attempt + 1;
    values[':nextAt'] = result.nextAttemptAt.toISOString();
  }
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('webhooks'),
        Key: { accountId: delivery.accountId, sk: delivery.sk },
        UpdateExpression: `SET ${set.join(', ')} REMOVE ${remove.join(', ')}`,
        ConditionExpression: 'inFlight = :n',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A pending delivery that will not be sent (its subscription was paused or deleted meanwhile). */
export async function abandonDelivery(delivery: DeliveryItem, error: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('webhooks'),
      Key: { accountId: delivery.accountId, sk: delivery.sk },
      UpdateExpression: 'SET #status = :failed, #error = :error REMOVE nextAttempt, nextAttemptAt',
      ConditionExpression: '#status = :pending AND attribute_not_exists(inFlight)',
      ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
      ExpressionAttributeValues: { ':failed': 'failed', ':pending': 'pending', ':error': error },
    }),
  ).catch((e: unknown) => {
    if (!isConditionFailure(e)) throw e;
  });
}

export async function listDeliveries(hookId: string): Promise<DeliveryItem[]> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: tableName('webhooks'),
      IndexName: 'byHook',
      KeyConditionExpression: 'deliveryHook = :h',
      ExpressionAttributeValues: { ':h': hookId },
      ScanIndexForward: false,
      Limit: WEBHOOK_DELIVERIES_MAX,
    }),
  );
  return (out.Items ?? []) as DeliveryItem[];
}

// The subscription's health

/** A success: the failures start again. Written only when there were any. */
export async function markHookHealthy(accountId: string, hookId: string): Promise<void> {
  await dynamo()
    .send(
      new UpdateCommand({
        TableName: tableName('webhooks'),
        Key: { accountId, sk: hookKey(hookId) },
        UpdateExpression: 'SET consecutiveFailures = :zero REMOVE failingSince',
        ConditionExpression: 'attribute_exists(sk) AND (consecutiveFailures > :zero OR attribute_exists(failingSince))',
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    )
    .catch((e: unknown) => {
      if (!isConditionFailure(e)) throw e;
    });
}

/** A failed attempt (and, with `deliveryFailed`, the delivery's last): the hook's failure counters as they are now, or null when it is gone. */
export async function markHookFailing(accountId: string, hookId: string, nowMs: number, deliveryFailed: boolean): Promise<HookItem | null> {
  try {
    const out = await dynamo().send(
      new UpdateCommand({
        TableName: tableName('webhooks'),
        Key: { accountId, sk: hookKey(hookId) },
        UpdateExpression: `SET failingSince = if_not_exists(failingSince, :now)${deliveryFailed ? ' ADD consecutiveFailures :one' : ''}`,
        ConditionExpression: 'attribute_exists(sk)',
        ExpressionAttributeValues: { ':now': nowMs, ...(deliveryFailed ? { ':one': 1 } : {}) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return (out.Attributes as HookItem | undefined) ?? null;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/** Pauses an active subscription for failing; true for the one caller that paused it. */
export async function pauseFailingHook(accountId: string, hookId: string, now: Date): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('webhooks'),
        Key: { accountId, sk: hookKey(hookId) },
        UpdateExpression: 'SET active = :false, pausedReason = :failing, pausedAt = :at, pauseId = :pause, updatedAt = :at, #rev = #rev + :one REMOVE watch, watchKey, pauseMailDone',
        ConditionExpression: 'attribute_exists(sk) AND active = :true',
        ExpressionAttributeNames: { '#rev': 'rev' },
        ExpressionAttributeValues: { ':false': false, ':true': true, ':failing': 'failing', ':at': now.toISOString(), ':pause': String(now.getTime()), ':one': 1 },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Claims the pause e-mail to one admin; false when it was claimed before. */
export async function claimPauseMail(accountId: string, hookId: string, pauseId: string, userId: string, nowMs: number): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('webhooks'),
        Item: { accountId, sk: `pausemail#${hookId}#${pauseId}#${userId}`, at: nowMs, expiresAt: Math.floor(nowMs / 1000) + DELIVERY_RETENTION_DAYS * 86_400 },
        ConditionExpression: 'attribute_not_exists(sk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function releasePauseMail(accountId: string, hookId: string, pauseId: string, userId: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: tableName('webhooks'), Key: { accountId, sk: `pausemail#${hookId}#${pauseId}#${userId}` } }));
}

export async function markPauseMailDone(accountId: string, hookId: string, pauseId: string): Promise<void> {
  await dynamo()
    .send(
      new UpdateCommand({
        TableName: tableName('webhooks'),
        Key: { accountId, sk: hookKey(hookId) },
        UpdateExpression: 'SET pauseMailDone = :true',
        ConditionExpression: 'pauseId = :pause',
        ExpressionAttributeValues: { ':true': true, ':pause': pauseId },
      }),
    )
    .catch((e: unknown) => {
      if (!isConditionFailure(e)) throw e;
    });
}
