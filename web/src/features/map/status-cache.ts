/**
 * Unit statuses at 50,000 units: `unitStatus` parses the unit's last-seen time on every call, and
 * the list's counts, the map's features and the check for units gone silent ask for every unit
 * again and again. A unit's status changes with time at one moment only, when it goes offline; so
 * each unit object (the store gives a changed unit a new one) gets its status and that moment once,
 * and a later time costs a comparison.
 */
import { isMoving, offlineAfterMs, unitStatus, type UnitStatus } from '../../../../shared/unit-status';
import type { StoredUnit } from './unit-store';

interface Timeline {
  /** The status until `offlineAt` (ms since the epoch); offline from then on. */
  status: UnitStatus;
  offlineAt: number;
}

const timelines = new WeakMap<StoredUnit, Timeline>();

function timelineOf(unit: StoredUnit): Timeline {
  const state = unit.state;
  const seen = state ? Date.parse(state.lastSeen) : NaN;
  if (!state || !Number.isFinite(seen)) return { status: 'offline', offlineAt: -Infinity };
  const offlineAt = seen + offlineAfterMs(unit.operatingMode, isMoving(state));
  // The status just before going offline, by the one rule (unitStatus) at a moment it still holds.
  return { status: unitStatus(unit, Math.min(offlineAt, seen)), offlineAt };
}

/** The same as `unitStatus(unit, now)`, computed once per unit object. */
export function statusAt(unit: StoredUnit, now: number): UnitStatus {
  let timeline = timelines.get(unit);
  if (!timeline) {
    timeline = timelineOf(unit);
    timelines.set(unit, timeline);
  }
  return now > timeline.offlineAt ? 'offline' : timeline.status;
}
