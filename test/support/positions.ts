/** For tests that store positions or states directly: a fixed position with every optional field absent. */
import type { Position } from '../../functions/ingest/types';

export function testPosition(ts: number, lat: number, lon: number, extra: Partial<Position> = {}): Position {
  return {
    ts, lat, lon, fix: true, speed: undefined, heading: undefined, alt: undefined, sats: undefined, hdop: undefined,
    ignition: undefined, movement: undefined, odometer: undefined, engineSeconds: undefined, extVolts: undefined,
    batVolts: undefined, din: undefined, dout: undefined, ble: undefined, rfid: undefined, io: undefined, ...extra,
  };
}
