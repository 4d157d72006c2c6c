/**
 * The unit's latest state after a position: where it is and how it moves come from the position
 * alone; inputs, outputs, voltages and counters carry over from the previous state when the
 * record does not report them (a minimal record must not erase the ignition or the odometer).
 */
import type { IoStates, Position, UnitState } from './types';

function mergeIo(prev: IoStates | undefined, next: IoStates | undefined): IoStates | undefined {
  if (!next) return prev;
  if (!prev) return next;
  return { ...prev, ...next };
}

/** Where a position is and how it moves: what the stored position and the unit's state both take from it alone. */
export function fixOf(p: Position): Pick<Position, 'ts' | 'lat' | 'lon' | 'speed' | 'heading' | 'alt' | 'sats' | 'hdop'> {
  return { ts: p.ts, lat: p.lat, lon: p.lon, speed: p.speed, heading: p.heading, alt: p.alt, sats: p.sats, hdop: p.hdop };
}

export function nextState(prev: UnitState | undefined, p: Position, receivedAt: number): UnitState {
  return {
    ...fixOf(p),
    ignition: p.ignition ?? prev?.ignition,
    movement: p.movement ?? prev?.movement,
    extVolts: p.extVolts ?? prev?.extVolts,
    batVolts: p.batVolts ?? prev?.batVolts,
    din: mergeIo(prev?.din, p.din),
    dout: mergeIo(prev?.dout, p.dout),
    odometer: p.odometer ?? prev?.odometer,
    engineSeconds: p.engineSeconds ?? prev?.engineSeconds,
    lastSeen: receivedAt,
  };
}
