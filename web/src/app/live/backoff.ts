/** First and longest wait between reconnection attempts of the live channel. */
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

/**
 * How long to wait before reconnection attempt `attempt` (0 for the first after a drop): doubling
 * from 1 s up to 30 s, each drawn between half and all of that ("equal jitter"), so that the
 * browsers a broker restart cut off together do not all come back in the same second.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
