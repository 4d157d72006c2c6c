/**
 * The retry schedule of a webhook delivery (docs/api.md Webhooks): attempt n+1 follows a failed
 * attempt n after 10 s × 5^(n-1), at most 4 hours, each with ±25 % jitter, so that receivers that
 * failed together are not all tried again at the same moment: about 10 s, 50 s, 4 min, 21 min,
 * 1.7 h, 4 h, 4 h. After attempt 8 the delivery has failed.
 *
 * A subscription is paused after 5 failed deliveries in a row, or once it has been failing for
 * 24 hours (no success since its first failed attempt).
 */
export const WEBHOOK_MAX_ATTEMPTS = 8;
export const RETRY_BASE_MS = 10_000;
export const RETRY_FACTOR = 5;
export const RETRY_CAP_MS = 4 * 3_600_000;
export const RETRY_JITTER = 0.25;
export const PAUSE_AFTER_FAILED_DELIVERIES = 5;
export const PAUSE_AFTER_FAILING_MS = 24 * 3_600_000;

/** Milliseconds to wait after failed attempt `attempt` (1-based); `random` in [0, 1). `scale` shortens it (embedded tests only). */
export function retryDelayMs(attempt: number, random: () => number = Math.random, scale = 1): number {
  const base = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * RETRY_FACTOR ** Math.max(0, attempt - 1));
  const jittered = base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random());
  return Math.round(jittered * scale);
}

export function shouldPause(consecutiveFailedDeliveries: number, failingSinceMs: number | null, nowMs: number): boolean {
  return consecutiveFailedDeliveries >= PAUSE_AFTER_FAILED_DELIVERIES || (failingSinceMs !== null && nowMs - failingSinceMs >= PAUSE_AFTER_FAILING_MS);
}
