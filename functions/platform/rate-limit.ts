/**
 * Fixed-window rate limits in the `rate-limits` table. A window is its own item,
 * `<key>#<window index>`, counted with one atomic UpdateItem ADD, so concurrent requests never lose
 * a count and an old window needs no reset: the next window is simply another item, and TTL
 * removes the old one. A fixed window allows a short burst of up to twice the limit across a
 * window boundary; for the abuse these limits stop (guessing, e-mail lookups, mail flooding) that
 * is good enough, and it costs one write per request.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { clientAddress } from './client-address';
import { dynamo, epochSeconds, tableName } from './db';
import { TooManyRequestsError } from './errors';

export interface RateLimitState {
  /** Requests counted in the current window, this one included. */
  count: number;
  remaining: number;
  /** Seconds until the window ends (at least 1). */
  retryAfter: number;
  limited: boolean;
}

/** Counts one request against `key` and reports whether it is over `limit` in its window. */
export async function hitRateLimit(key: string, limit: number, windowSeconds: number, now: Date): Promise<RateLimitState> {
  const nowSeconds = epochSeconds(now);
  const window = Math.floor(nowSeconds / windowSeconds);
  const windowEnd = (window + 1) * windowSeconds;
  const out = await dynamo().send(
    new UpdateCommand({
      TableName: tableName('rateLimits'),
      Key: { key: `${key}#${window}` },
      UpdateExpression: 'ADD #count :one SET expiresAt = if_not_exists(expiresAt, :end)',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':end': windowEnd },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const count = Number(out.Attributes?.['count'] ?? 1);
  return {
    count,
    remaining: Math.max(0, limit - count),
    retryAfter: Math.max(1, windowEnd - nowSeconds),
    limited: count > limit,
  };
}

/**
 * Counts one request and throws TooManyRequestsError (429 with retry-after) when `key` is over
 * `limit` requests in the current window of `windowSeconds`.
 */
export async function consumeRateLimit(key: string, limit: number, windowSeconds: number, now: Date): Promise<void> {
  const state = await hitRateLimit(key, limit, windowSeconds, now);
  if (state.limited) throw new TooManyRequestsError(state.retryAfter, 'TooManyRequests');
}

/**
 * The client a per-client limit counts: the viewer's address on AWS (CloudFront's, with the
 * origin secret), the socket's address in the embedded runtime; an IPv6 address by its /64.
 * Headers such as X-Forwarded-For are ignored, since any client can send them.
 */
export function clientKey(event: Pick<APIGatewayProxyEventV2, 'requestContext' | 'headers'>): string {
  return clientAddress(event);
}
