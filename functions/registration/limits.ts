/**
 * Per-client limits of the public registration routes (429 TooManyRequests with retry-after).
 * validate-imei and subscription-payment-types both tell whether an IMEI is in the inventory and
 * free, so they count against one limit: an IMEI guesser gains nothing by alternating them. The
 * registration wizard asks a few times per IMEI typed; a reseller registering a batch of trackers
 * from one office address stays well below both limits.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { clientKey, consumeRateLimit } from '../platform/rate-limit';

export const IMEI_LOOKUP_LIMIT = 40;
export const IMEI_LOOKUP_WINDOW_SECONDS = 600;

/** Every registration attempt the handler sees (malformed payloads are refused before it and do not count). */
export const REGISTER_ACCOUNT_LIMIT = 30;
export const REGISTER_ACCOUNT_WINDOW_SECONDS = 3600;

type Event = Pick<APIGatewayProxyEventV2, 'requestContext' | 'headers'>;

export function countImeiLookup(event: Event, now: Date): Promise<void> {
  return consumeRateLimit(`imei-lookup#${clientKey(event)}`, IMEI_LOOKUP_LIMIT, IMEI_LOOKUP_WINDOW_SECONDS, now);
}

export function countRegistration(event: Event, now: Date): Promise<void> {
  return consumeRateLimit(`register-account#${clientKey(event)}`, REGISTER_ACCOUNT_LIMIT, REGISTER_ACCOUNT_WINDOW_SECONDS, now);
}
