import { describe, expect, it } from 'vitest';
import { RECONNECT_BASE_MS, RECONNECT_MAX_MS, reconnectDelayMs } from './backoff';

describe('reconnectDelayMs', () => {
  it('doubles from one second and stops at thirty', () => {
    const upper = Array.from({ length: 8 }, (_, attempt) => reconnectDelayMs(attempt, () => 1));
    expect(upper).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('spreads each wait over the upper half of its range', () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(RECONNECT_BASE_MS / 2);
    expect(reconnectDelayMs(3, () => 0.5)).toBe(6_000);
    expect(reconnectDelayMs(20, () => 0)).toBe(RECONNECT_MAX_MS / 2);
  });
});
