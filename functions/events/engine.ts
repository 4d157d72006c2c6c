/**
 * The event engine: a unit's positions, in device-time order, against its previous event state,
 * give its next state and the events that happened in between. Pure and synchronous (it runs on
 * ingest's hot path for every position: functions/events/stage.ts makes it an ingest stage).
 *
 * Each rule keeps its own slice of the state and decides on transitions only, never on levels: a
 * unit that stays outside a zone raises one exit, a battery that stays low one low-battery event.
 * A rule's first look at a unit (no previous slice, a zone newly assigned or switched back on)
 * only learns where the unit is: being somewhere is not an event.
 *
 * Rules (spec sections 4 and 9, docs/decisions/0017-events-and-alarms.md):
 * - geofences (the unit's `zones` copies): enter and exit of each active zone; a circle's border
 *   has a margin (5 % of the radius, 10-50 m) so that GPS jitter on the line does not flap; an
 *   exit of a theft-mode zone also switches the unit to theft mode; the zone's deactivation
 *   windows make its events records without an alarm;
 * - overspeed: above the unit's limit for at least its minimum duration, once per episode; at its
 *   end the episode is recorded (`overspeedEpisode` at its start: seconds, top speed, limit);
 * - eco driving (shared/eco.ts): a tracker's harsh acceleration, braking or cornering (a native
 *   record's g at or above the unit's eco sensitivity's threshold; a Teltonika device decided it
 *   against the thresholds it was sent); idling, standing with the ignition on (or the device's
 *   excessive-idling flag), recorded at its end (`idling` at its start, with its seconds) when it
 *   lasted the sensitivity's idle time (a device's episode whatever its length). Recorded, never alarmed;
 * - low battery: the tracker's battery below LOW_BATTERY_VOLTS, cleared only 3 % above it;
 * - power cut: external power below POWER_CUT_VOLTS after it was present (POWER_OK_VOLTS);
 * - digital inputs: each change of a reported input, an alarm only for the inputs the unit names in
 *   `dinAlarms` (ignition is often wired to one: its every change is recorded, not alarmed);
 * - theft movement: movement while the unit is in theft mode, once per movement episode.
 * Sensor thresholds, safe return home and service intervals raise their events through the same
 * effect (`eventEffect`) from where they are decided.
 */
import type { EventType } from '../../shared/schemas/events';
import type { UnitItem, UnitZone } from '../domain/unit/schema';
import { inWeeklyWindows } from '../schedules/weekly-windows';
import { distanceM } from '../../shared/geo';
import type { Position } from '../ingest/types';
import { ecoThresholdsOf, HARSH_EVENT_TYPES } from '../../shared/eco';

/** Volts. Li-ion tracker batteries cut out near 3.3 V; below 3.5 V a few hours are left. */
export const LOW_BATTERY_VOLTS = 3.5;
/** The spec's voltage margin: a low battery counts as recovered only this much above the threshold. */
export const LOW_BATTERY_MARGIN = 0.03;
/** External power (a vehicle's 12 or 24 V) counts as cut below this, and as present from POWER_OK_VOLTS. */
export const POWER_CUT_VOLTS = 6;
export const POWER_OK_VOLTS = 8;
/** Default minimum duration above the overspeed limit. */
export const DEFAULT_OVERSPEED_SECONDS = 30;
/** A silence this long ends an idling episode at the last record before it. */
export const IDLE_SILENCE_MS = 15 * 60_000;
/** km/h above which a unit in theft mode counts as moving when it reports no movement flag. */
export const THEFT_MOVING_KMH = 5;

export interface EventEngineState {
  /** Device time of the last position evaluated. */
  t: number;
  /** Per zone id: 1 inside, 0 outside. */
  zones?: Record<string, 0 | 1>;
  /** The current overspeed episode: since when (and where), its top speed, whether it was raised. */
  over?: { since: number; max: number; raised: boolean; lat?: number; lon?: number };
  /** The current idling episode: since when, where, and whether the device's flag started it. */
  idle?: { since: number; lat: number; lon: number; device: boolean };
  lowBat?: boolean;
  /** External power: true present, false cut. */
  power?: boolean;
  din?: Record<string, boolean>;
  /** In theft mode and moving (raised for this movement). */
  theftMoving?: boolean;
}

/** One event the engine decided on; its key tells events of one type and time apart (the zone). */
export interface RaisedEvent {
  type: EventType;
  ts: number;
  key: string;
  lat: number;
  lon: number;
  /** False when the event is only recorded (an alarm-off zone, a deactivated window). */
  alarm: boolean;
  details: Record<string, string | number | boolean | null>;
}

export interface EngineResult {
  state: EventEngineState;
  events: RaisedEvent[];
  /** The unit left a theft-mode zone: switch it to theft mode (once per exit). */
  theftModeFrom?: { ts: number; zoneId: string };
}

/** What the engine reads of a position. */
export type EnginePosition = Pick<Position, 'ts' | 'lat' | 'lon'> & Partial<Pick<Position, 'speed' | 'ignition' | 'movement' | 'eco' | 'batVolts' | 'extVolts' | 'din'>>;

/** The part of the unit item the engine reads. */
export type EngineUnit = Pick<UnitItem, 'zones' | 'overspeedKmh' | 'overspeedSeconds' | 'lowBatteryAlert' | 'dinAlarms' | 'operatingMode' | 'ecoSensitivity'>;

const borderMargin = (radius: number) => Math.min(50, Math.max(10, radius * 0.05));

/** Ray casting over [lon, lat] corners (a zone spans kilometres: planar is exact enough). */
export function insidePolygon(lat: number, lon: number, corners: readonly (readonly [number, number])[]): boolean {
  let inside = false;
  for (let i = 0, j = corners.length - 1; i < corners.length; j = i++) {
    const [xi, yi] = corners[i]!;
    const [xj, yj] = corners[j]!;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Whether a position is inside a zone; `wasInside` picks the side of a circle's margin that keeps the previous answer. */
export function zoneContains(zone: UnitZone, lat: number, lon: number, wasInside: boolean | undefined): boolean {
  if (zone.polygon) return insidePolygon(lat, lon, zone.polygon);
  const d = distanceM(zone.lat, zone.lon, lat, lon);
  if (wasInside === undefined) return d <= zone.radius;
  return wasInside ? d <= zone.radius + borderMargin(zone.radius) : d <= zone.radius - borderMargin(zone.radius);
}

function zoneArmed(zone: UnitZone, ts: number): boolean {
  return zone.alarm && !(zone.off.length > 0 && inWeeklyWindows(ts, zone.timeZone, zone.off));
}

const isMoving = (p: EnginePosition) => p.movement === true || (p.movement === undefined && (p.speed ?? 0) > THEFT_MOVING_KMH);

/**
 * The harsh acceleration, braking or cornering a position reports, when it counts: the tracker
 * decided it (Teltonika's green driving, against the thresholds the unit's sensitivity sent it),
 * or its peak reaches the sensitivity's threshold (a native `harsh`). A point event at the
 * position's own time, never an alarm.
 */
function harshEvent(p: EnginePosition, eco: ReturnType<typeof ecoThresholdsOf>): RaisedEvent | null {
  const harsh = p.eco?.harsh;
  if (!harsh || !(harsh.byDevice || harsh.g === undefined || harsh.g >= eco.g[harsh.kind])) return null;
  return { type: HARSH_EVENT_TYPES[harsh.kind], ts: p.ts, key: 'harsh', lat: p.lat, lon: p.lon, alarm: false, details: { g: harsh.g ?? null, ms: harsh.ms ?? null, speed: p.speed ?? null } };
}

/**
 * The harsh events of late positions (a tracker's buffer sent after newer records): facts at
 * their own time that no later position changes, so they are recorded whenever they arrive. The
 * rules over a stretch of positions (zones, speeding, idling, inputs) decide on new positions only.
 */
export function lateHarshEvents(unit: EngineUnit, late: readonly EnginePosition[]): RaisedEvent[] {
  const eco = ecoThresholdsOf(unit.ecoSensitivity);
  return late.map((p) => harshEvent(p, eco)).filter((e): e is RaisedEvent => e !== null);
}

/** How far around a late buffer its episodes are looked for in the stored positions. */
export const LATE_EPISODE_MARGIN_MS = 30 * 60_000;
const EPISODE_TYPES: ReadonlySet<EventType> = new Set(['overspeedEpisode', 'idling']);

/**
 * The speeding and idling episodes of a late buffer (positions in [fromTs, toTs] sent after newer
 * ones), decided over the stored positions around it (LATE_EPISODE_MARGIN_MS), which hold the
 * buffer's earlier pieces: an episode that ends within the buffer and starts after the first
 * stored position read (one running into it may have begun before). One still going at the
 * buffer's end is left to the buffer's next piece (the positions after it were decided live).
 * Records, never alarms; their ids are those a live run over the same positions gives, so a later
 * piece of the buffer finding an episode again records it once.
 */
export function lateEpisodeEvents(unit: EngineUnit, stored: readonly EnginePosition[], fromTs: number, toTs: number): RaisedEvent[] {
  const first = stored[0];
  if (!first) return [];
  const episodesOnly: EngineUnit = { overspeedKmh: unit.overspeedKmh, overspeedSeconds: unit.overspeedSeconds, ecoSensitivity: unit.ecoSensitivity, lowBatteryAlert: false };
  return runEngine(episodesOnly, undefined, stored).events.filter(
    (e) => {
      const end = e.ts + Number(e.details['seconds']) * 1000;
      return EPISODE_TYPES.has(e.type) && e.ts > first.ts && end >= fromTs && end <= toTs;
    },
  );
}

/**
 * Runs the rules over the positions newer than the state (older ones were decided on already:
 * redelivered or late positions change nothing here).
 */
export function runEngine(unit: EngineUnit, previous: EventEngineState | undefined, positions: readonly EnginePosition[]): EngineResult {
  const state: EventEngineState = previous ? { ...previous } : { t: -Infinity };
  const events: RaisedEvent[] = [];
  let theftModeFrom: EngineResult['theftModeFrom'];

  const zones = Object.entries(unit.zones ?? {}).filter(([, z]) => z.active);
  // A zone no longer assigned or no longer active is forgotten: switched on again, it learns anew.
  let zoneState: Record<string, 0 | 1> | undefined;
  if (zones.length) {
    zoneState = {};
    for (const [id] of zones) if (state.zones?.[id] !== undefined) zoneState[id] = state.zones[id]!;
  }
  const limit = unit.overspeedKmh;
  const minOverMs = (unit.overspeedSeconds ?? DEFAULT_OVERSPEED_SECONDS) * 1000;
  const batteryAlert = unit.lowBatteryAlert !== false;
  const theftMode = unit.operatingMode === 'theft';
  if (limit === undefined) delete state.over;
  if (!theftMode) delete state.theftMoving;
  let din = state.din ? { ...state.din } : undefined;
  const eco = ecoThresholdsOf(unit.ecoSensitivity);

  for (const p of positions) {
    if (p.ts <= state.t) continue;
    const previousT = state.t;
    state.t = p.ts;
    const at = (type: EventType, key: string, alarm: boolean, details: RaisedEvent['details']) =>
      events.push({ type, ts: p.ts, key, lat: p.lat, lon: p.lon, alarm, details });

    if (zoneState) {
      for (const [id, zone] of zones) {
        const was = zoneState[id];
        const inside = zoneContains(zone, p.lat, p.lon, was === undefined ? undefined : was === 1);
        zoneState[id] = inside ? 1 : 0;
        if (was === undefined || (was === 1) === inside) continue;
        at(inside ? 'geofenceEnter' : 'geofenceExit', id, zoneArmed(zone, p.ts), { geofenceId: id, geofence: zone.name });
        if (!inside && zone.theftMode && !theftMode && !theftModeFrom) theftModeFrom = { ts: p.ts, zoneId: id };
      }
    }

    if (limit !== undefined && p.speed !== undefined) {
      if (p.speed > limit) {
        const over = state.over ? { ...state.over, max: Math.max(state.over.max, p.speed) } : { since: p.ts, max: p.speed, raised: false, lat: p.lat, lon: p.lon };
        if (!over.raised && p.ts - over.since >= minOverMs) {
          over.raised = true;
          at('overspeed', 'speed', true, { speed: Math.round(over.max), limit, since: new Date(over.since).toISOString() });
        }
        state.over = over;
      } else {
        const over = state.over;
        if (over && p.ts - over.since >= minOverMs) {
          events.push({
            type: 'overspeedEpisode',
            ts: over.since,
            key: 'speed',
            lat: over.lat ?? p.lat,
            lon: over.lon ?? p.lon,
            alarm: false,
            details: { seconds: Math.round((p.ts - over.since) / 1000), maxSpeed: Math.round(over.max), limit },
          });
        }
        delete state.over;
      }
    }

    const harsh = harshEvent(p, eco);
    if (harsh) events.push(harsh);

    const deviceIdle = p.eco?.idling;
    const idle = state.idle;
    // A record without ignition keeps the last known state, as trip detection does.
    const standing = (p.ignition ?? idle !== undefined) && !isMoving(p);
    const silent = idle !== undefined && p.ts - previousT > IDLE_SILENCE_MS;
    if (idle && (silent || deviceIdle === false || p.ignition === false || (!idle.device && deviceIdle !== true && !standing))) {
      // Idling ends where the tracker fell silent, not across the silence.
      const seconds = Math.round(((silent ? previousT : p.ts) - idle.since) / 1000);
      if (idle.device || seconds >= eco.idleSeconds) {
        events.push({ type: 'idling', ts: idle.since, key: 'idle', lat: idle.lat, lon: idle.lon, alarm: false, details: { seconds, device: idle.device } });
      }
      delete state.idle;
    } else if (idle && deviceIdle === true && !idle.device) {
      state.idle = { ...idle, device: true };
    } else if (!idle && (deviceIdle === true || (deviceIdle === undefined && standing))) {
      state.idle = { since: p.ts, lat: p.lat, lon: p.lon, device: deviceIdle === true };
    }

    if (p.batVolts !== undefined) {
      if (!state.lowBat && p.batVolts < LOW_BATTERY_VOLTS) {
        state.lowBat = true;
        if (batteryAlert) at('lowBattery', 'battery', true, { volts: p.batVolts, threshold: LOW_BATTERY_VOLTS });
      } else if (state.lowBat && p.batVolts >= LOW_BATTERY_VOLTS * (1 + LOW_BATTERY_MARGIN)) {
        state.lowBat = false;
      } else if (state.lowBat === undefined) {
        state.lowBat = false;
      }
    }

    if (p.extVolts !== undefined) {
      if (p.extVolts >= POWER_OK_VOLTS) state.power = true;
      else if (p.extVolts < POWER_CUT_VOLTS && state.power === true) {
        state.power = false;
        at('powerCut', 'power', true, { volts: p.extVolts });
      }
    }

    if (p.din) {
      for (const [input, on] of Object.entries(p.din)) {
        const was = din?.[input];
        (din ??= {})[input] = on;
        if (was !== undefined && was !== on) at('dinChange', `din${input}`, unit.dinAlarms?.[input] === true, { input: Number(input), on });
      }
    }

    if (theftMode) {
      const moving = isMoving(p);
      if (moving && !state.theftMoving) at('theftMovement', 'theft', true, { speed: p.speed ?? null });
      state.theftMoving = moving;
    }
  }

  if (zoneState && Object.keys(zoneState).length) state.zones = zoneState;
  else delete state.zones;
  if (din) state.din = din;
  return { state, events, ...(theftModeFrom ? { theftModeFrom } : {}) };
}
