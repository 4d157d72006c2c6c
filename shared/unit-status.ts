/**
 * A unit's status on the map and in the unit list: moving, idling (standing with the ignition on),
 * parked, or offline (not heard from for longer than its operating mode lets it be silent). One pure
 * function, so that the markers, the list's filter and its counts agree. Without zod: the map's
 * chunk imports it.
 */
import type { OperatingMode } from './schemas/commands';
import type { UnitState } from './schemas/tracking';

export const unitStatuses = ['moving', 'idling', 'parked', 'offline'] as const;
export type UnitStatus = (typeof unitStatuses)[number];

/** Below this a reported speed is GPS noise of a standing unit (km/h). */
export const MOVING_KMH = 3;

/**
 * Seconds between two records of a tracker in each operating mode, standing still and moving
 * (spec section 9): fixed modes report at the same interval whatever happens; real-time every 5 or
 * 1 minutes while moving and hourly when still; movement-based every 5 minutes moving and once a
 * day still; theft mode every 5 minutes moving and every 30 minutes still. The device encoding
 * configures the trackers with these very periods.
 */
export const REPORT_PERIOD_SECONDS: Readonly<Record<OperatingMode, { stop: number; moving: number }>> = {
  fixed24h: { stop: 86_400, moving: 86_400 },
  fixed12h: { stop: 43_200, moving: 43_200 },
  fixed8h: { stop: 28_800, moving: 28_800 },
  fixed6h: { stop: 21_600, moving: 21_600 },
  fixed1h: { stop: 3_600, moving: 3_600 },
  realtime5min: { stop: 3_600, moving: 300 },
  realtime1min: { stop: 3_600, moving: 60 },
  movement: { stop: 86_400, moving: 300 },
  theft: { stop: 1_800, moving: 300 },
};

/** While the tracker has not acknowledged an operating mode: the periods of real-time (5 min) mode. */
export const DEFAULT_REPORT_PERIOD_SECONDS = REPORT_PERIOD_SECONDS.realtime5min;

/**
 * A unit is offline once its next report is overdue by half a period and five minutes more: a record
 * may be sent late in a batch or over a slow network, but a tracker that skipped a whole report has
 * lost power or coverage. A unit reporting every minute while driving is offline after 6.5 minutes
 * of silence, a parked real-time unit after 95 minutes, a unit reporting once a day after 36 hours.
 */
export const OFFLINE_OVERDUE_FACTOR = 1.5;
export const OFFLINE_GRACE_SECONDS = 300;

type StatusState = Pick<UnitState, 'speed' | 'movement' | 'ignition' | 'lastSeen'>;

/** Moving by the reported speed; by the tracker's movement flag when it sent no speed. */
export function isMoving(state: Pick<UnitState, 'speed' | 'movement'>): boolean {
  if (state.speed !== null) return state.speed >= MOVING_KMH;
  return state.movement === true;
}

/** How long a unit may be silent, in milliseconds, given its operating mode and whether it was moving. */
export function offlineAfterMs(mode: OperatingMode | null, moving: boolean): number {
  const periods = mode ? REPORT_PERIOD_SECONDS[mode] : DEFAULT_REPORT_PERIOD_SECONDS;
  const period = moving ? periods.moving : periods.stop;
  return (period * OFFLINE_OVERDUE_FACTOR + OFFLINE_GRACE_SECONDS) * 1000;
}

/**
 * The unit's status at `now` (ms since the epoch). A unit without a position has never been heard
 * from: offline. Silence is measured from `lastSeen`, when the tracker was last heard from.
 */
export function unitStatus(unit: { state: StatusState | null; operatingMode: OperatingMode | null }, now: number): UnitStatus {
  const state = unit.state;
  if (!state) return 'offline';
  const moving = isMoving(state);
  const seen = Date.parse(state.lastSeen);
  if (!Number.isFinite(seen) || now - seen > offlineAfterMs(unit.operatingMode, moving)) return 'offline';
  if (moving) return 'moving';
  return state.ignition === true ? 'idling' : 'parked';
}

/**
 * Status colours, each at least 3:1 against white (WCAG non-text contrast): the dot on a marker (a moving
 * unit's heading arrow) and in the list. Offline is drawn hollow, so that it differs by more than its colour.
 */
export const STATUS_COLORS: Readonly<Record<UnitStatus, string>> = {
  moving: '#2b8a3e',
  idling: '#d9480f',
  parked: '#1864ab',
  offline: '#868e96',
};
