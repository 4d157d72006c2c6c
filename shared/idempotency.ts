/**
 * Exactly-once writes for clients that retry (the driver's offline outbox, docs/decisions/0047):
 * a request to a route listed here may carry an `Idempotency-Key` header. The server keeps the
 * first answer per key and account for `IDEMPOTENCY_TTL_SECONDS` and answers a repeat of the same
 * request with that answer instead of applying it again (functions/platform/idempotency.ts).
 *
 * Pure data, shared with the browser (which sends the header) and the OpenAPI document.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** A replayed answer carries this header with the value `true`. */
export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';
/** How long a key's answer is kept (24 h). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** A claim older than this whose request never finished (a crashed function) may be taken over. */
export const IDEMPOTENCY_STALE_CLAIM_SECONDS = 60;

/** 8 to 128 letters, digits, `-` and `_`: a UUID fits, and nothing that could break a key. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/** The routes (by operationId, shared/routes.ts) that take the header. */
export const idempotentOperations: ReadonlySet<string> = new Set(['putTrip', 'driverCheckIn']);

export const idempotencyMessageKeys = {
  /** The header's value is not a key (422). */
  InvalidIdempotencyKey: 'InvalidIdempotencyKey',
  /** The key was used before for another request (422). */
  IdempotencyKeyReused: 'IdempotencyKeyReused',
  /** A request with the key is still being applied (409, retry-after). */
  IdempotencyKeyInProgress: 'IdempotencyKeyInProgress',
} as const;
