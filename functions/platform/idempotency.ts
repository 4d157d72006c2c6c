/**
 * Exactly-once application of a request that a client may send again (shared/idempotency.ts,
 * docs/decisions/0047): the first request with an `Idempotency-Key` claims the key in the
 * `idempotency` table with a conditional put, is applied, and its answer is stored under the key;
 * a repeat of the same request (same user, method, path and body) gets the stored answer, marked
 * `Idempotent-Replayed: true`, and is not applied again. Keys belong to the caller's account.
 *
 * - The claim is one conditional write, so of two concurrent requests with one key only one is
 *   applied; the other answers 409 `IdempotencyKeyInProgress` with `retry-after` and, asked again,
 *   gets the stored answer.
 * - A key used for another request answers 422 `IdempotencyKeyReused`.
 * - Answers below 500 (successes and refusals such as 423 TripIsAttested) are stored: the client
 *   sees the same refusal however often it asks. A 500 or a thrown error gives the key back, so
 *   the client's retry applies the request then.
 * - A claim whose request died (a function that timed out) is taken over after
 *   `IDEMPOTENCY_STALE_CLAIM_SECONDS`, by the same request only.
 */
import { createHash, randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import {
  idempotentOperations,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_STALE_CLAIM_SECONDS,
  IDEMPOTENCY_TTL_SECONDS,
  IDEMPOTENT_REPLAY_HEADER,
  idempotencyMessageKeys as keys,
} from '../../shared/idempotency';
import { isConditionFailure } from './conditions';
import { dynamo, epochSeconds, tableName } from './db';
import { ValidationError } from './errors';
import { httpHandler, type IdempotentRequest } from './http';
import type { RouteDef } from '../../shared/route-def';

type Result = APIGatewayProxyStructuredResultV2;

/** The header's name as the middleware sees it (header names are normalised to lower case). */
export const IDEMPOTENCY_HEADER_NAME = 'idempotency-key';

/** JSON with object keys in order, so the same body written in another key order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What makes two requests the same request: who sends it, where, and what. */
export function requestFingerprint(request: Omit<IdempotentRequest, 'key' | 'accountId'>): string {
  return createHash('sha256').update(`${request.userId}\n${request.method} ${request.path}\n${canonicalJson(request.body)}`).digest('hex');
}

export function checkIdempotencyKey(key: string): void {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw new ValidationError({ [IDEMPOTENCY_HEADER_NAME]: [keys.InvalidIdempotencyKey] });
}

interface StoredItem {
  key: string;
  fingerprint: string;
  state: 'pending' | 'done';
  claim?: string;
  claimedAt: number;
  expiresAt: number;
  statusCode?: number;
  body?: string;
  headers?: Record<string, string>;
}

function inProgress(): Result {
  return {
    statusCode: 409,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'retry-after': '1' },
    body: JSON.stringify({ success: false, message: keys.IdempotencyKeyInProgress, errors: keys.IdempotencyKeyInProgress }),
  };
}

function replay(item: StoredItem): Result {
  return {
    statusCode: item.statusCode ?? 200,
    headers: { ...(item.headers ?? {}), [IDEMPOTENT_REPLAY_HEADER.toLowerCase()]: 'true' },
    body: item.body ?? '',
  };
}

/** Headers worth replaying (the answer's type and caching, a retry-after); never cookies. */
function storedHeaders(result: Result): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    if (['content-type', 'cache-control', 'retry-after', 'location'].includes(name.toLowerCase())) out[name.toLowerCase()] = String(value);
  }
  return out;
}

/**
 * Runs `apply` once per key: the first request claims the key and runs it; a repeat gets the
 * stored answer (or 409 while the first is still running). `apply` answers what the client gets.
 */
export async function applyOnce(request: IdempotentRequest, now: Date, apply: () => Promise<Result>): Promise<Result> {
  checkIdempotencyKey(request.key);
  const table = tableName('idempotency');
  const itemKey = `${request.accountId}#${request.key}`;
  const fingerprint = requestFingerprint(request);
  const nowSeconds = epochSeconds(now);
  const claim = randomUUID();

  for (let attempt = 0; ; attempt++) {
    try {
      await dynamo().send(
        new PutCommand({
          TableName: table,
          Item: { key: itemKey, fingerprint, state: 'pending', claim, claimedAt: nowSeconds, expiresAt: nowSeconds + IDEMPOTENCY_TTL_SECONDS },
          // Free, expired (TTL deletes late), or a claim of this very request that was abandoned.
          ConditionExpression: 'attribute_not_exists(#key) OR expiresAt < :now OR (#state = :pending AND claimedAt < :stale AND fingerprint = :fingerprint)',
          ExpressionAttributeNames: { '#key': 'key', '#state': 'state' },
          ExpressionAttributeValues: { ':now': nowSeconds, ':pending': 'pending', ':stale': nowSeconds - IDEMPOTENCY_STALE_CLAIM_SECONDS, ':fingerprint': fingerprint },
        }),
      );
      break;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const read = await dynamo().send(new GetCommand({ TableName: table, Key: { key: itemKey }, ConsistentRead: true }));
    const item = read.Item as StoredItem | undefined;
    // Given back between our put and our read: claim it again (a second time, something is wrong).
    if (!item || item.expiresAt < nowSeconds) {
      if (attempt < 2) continue;
      return inProgress();
    }
    if (item.fingerprint !== fingerprint) throw new ValidationError({ [IDEMPOTENCY_HEADER_NAME]: [keys.IdempotencyKeyReused] });
    return item.state === 'done' ? replay(item) : inProgress();
  }

  const release = () =>
    dynamo().send(
      new DeleteCommand({
        TableName: table,
        Key: { key: itemKey },
        ConditionExpression: 'claim = :claim',
        ExpressionAttributeValues: { ':claim': claim },
      }),
    );
  let result: Result;
  try {
    result = await apply();
  } catch (error) {
    await release().catch(() => undefined);
    throw error;
  }
  if ((result.statusCode ?? 200) >= 500) {
    await release().catch(() => undefined);
    return result;
  }
  await dynamo().send(
    new UpdateCommand({
      TableName: table,
      Key: { key: itemKey },
      UpdateExpression: 'SET #state = :done, statusCode = :status, #body = :body, headers = :headers REMOVE claim',
      ConditionExpression: 'claim = :claim',
      ExpressionAttributeNames: { '#state': 'state', '#body': 'body' },
      ExpressionAttributeValues: { ':done': 'done', ':status': result.statusCode ?? 200, ':body': result.body ?? '', ':headers': storedHeaders(result), ':claim': claim },
    }),
  );
  return result;
}

/**
 * `httpHandler` for a route of `idempotentOperations`: a request with an Idempotency-Key is
 * applied once per key and account (see above); one without it as any other request.
 */
export function idempotentHandler<R extends RouteDef>(route: R, fn: Parameters<typeof httpHandler<R>>[1]) {
  if (!idempotentOperations.has(route.operationId)) throw new Error(`${route.operationId} is not listed in shared/idempotency.ts`);
  return httpHandler(route, fn, { applyOnce });
}
