import { describe, expect, it } from 'vitest';
import type { OperatingMode } from './schemas/commands';
import { MOVING_KMH, STATUS_COLORS, isMoving, offlineAfterMs, unitStatus, unitStatuses } from './unit-status';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;

function unit(state: Partial<{ speed: number | null; movement: boolean | null; ignition: boolean | null; lastSeen: string }> | null, operatingMode: OperatingMode | null = null) {
  return {
    operatingMode,
    state: state === null ? null : { speed: null, movement: null, ignition: null, lastSeen: ago(MIN), ...state },
  };
}

describe('unit status', () => {
  it('is moving above the speed threshold, or by the movement flag when no speed was sent', () => {
    expect(unitStatus(unit({ speed: 35, ignition: true }), NOW)).toBe('moving');
    expect(unitStatus(unit({ speed: MOVING_KMH, ignition: null }), NOW)).toBe('moving');
    expect(unitStatus(unit({ speed: null, movement: true }), NOW)).toBe('moving');
    // GPS noise of a standing unit, even with the tracker's accelerometer awake.
    expect(unitStatus(unit({ speed: MOVING_KMH - 0.5, movement: true, ignition: false }), NOW)).toBe('parked');
    expect(isMoving({ speed: 0, movement: true })).toBe(false);
  });

  it('is idling when standing with the ignition on, parked with it off or unknown', () => {
    expect(unitStatus(unit({ speed: 0, ignition: true }), NOW)).toBe('idling');
    expect(unitStatus(unit({ speed: null, movement: false, ignition: true }), NOW)).toBe('idling');
    expect(unitStatus(unit({ speed: 0, ignition: false }), NOW)).toBe('parked');
    expect(unitStatus(unit({ speed: 0, ignition: null }), NOW)).toBe('parked');
  });

  it('is offline without a position, or when the next report is overdue for its operating mode', () => {
    expect(unitStatus(unit(null), NOW)).toBe('offline');
    expect(unitStatus(unit({ speed: 0, lastSeen: 'not a time' }), NOW)).toBe('offline');
    // Unknown mode: real-time 5 min, so 12.5 minutes moving and 95 minutes standing.
    expect(unitStatus(unit({ speed: 50, lastSeen: ago(12 * MIN) }), NOW)).toBe('moving');
    expect(unitStatus(unit({ speed: 50, lastSeen: ago(13 * MIN) }), NOW)).toBe('offline');
    expect(unitStatus(unit({ speed: 0, ignition: false, lastSeen: ago(94 * MIN) }), NOW)).toBe('parked');
    expect(unitStatus(unit({ speed: 0, ignition: true, lastSeen: ago(96 * MIN) }), NOW)).toBe('offline');
    // Once a day is normal for a unit in the 24-hour mode, a day and a half is not.
    expect(unitStatus(unit({ speed: 0, ignition: false, lastSeen: ago(30 * 60 * MIN) }, 'fixed24h'), NOW)).toBe('parked');
    expect(unitStatus(unit({ speed: 0, ignition: false, lastSeen: ago(37 * 60 * MIN) }, 'fixed24h'), NOW)).toBe('offline');
    expect(unitStatus(unit({ speed: 80, lastSeen: ago(7 * MIN) }, 'realtime1min'), NOW)).toBe('offline');
    expect(offlineAfterMs('realtime1min', true)).toBe(6.5 * MIN);
    expect(offlineAfterMs('theft', false)).toBe(50 * MIN);
  });

  it('has a colour for every status, all of them readable on white (3:1)', () => {
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    for (const status of unitStatuses) expect(1.05 / (luminance(STATUS_COLORS[status]) + 0.05), status).toBeGreaterThanOrEqual(3);
  });
});
