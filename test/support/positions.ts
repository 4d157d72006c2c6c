/**
 * For tests that store positions or states directly: when the demo fleet counts as registered, and
 * a fixed position with every optional field absent.
 */
import type { Position } from '../../functions/ingest/types';

/**
 * When the demo account and its units count as registered in tests. A unit's owner sees no
 * position from before its registration, and tests store history at fixed dates (2025-03-10) and
 * hours back from now, so the demo fleet is registered before all of them.
 */
export const DEMO_REGISTERED_AT = new Date('2025-01-01T00:00:00.000Z');

export function testPosition(ts: number, lat: number, lon: number, extra: Partial<Position> = {}): Position {
  return {
    ts, lat, lon, fix: true, speed: undefined, heading: undefined, alt: undefined, sats: undefined, hdop: undefined,
    ignition: undefined, movement: undefined, odometer: undefined, engineSeconds: undefined, extVolts: undefined,
    batVolts: undefined, din: undefined, dout: undefined, ble: undefined, rfid: undefined, eco: undefined, io: undefined, ...extra,
  };
}
