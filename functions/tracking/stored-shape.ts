/**
 * The one place where what ingest stores (functions/ingest/types.ts: epoch milliseconds, absent
 * values left out of the item) becomes what the API answers (shared/schemas/tracking.ts: ISO
 * times, null for what a tracker never reported). Typed against ingest's own shapes, so a change
 * there fails to compile here instead of silently answering nulls.
 */
import { defaultMarker, type MapUnit, type Position, type RealtimeUnit, type UnitState } from '../../shared/schemas/tracking';
import type { Position as StoredPosition, UnitState as StoredState } from '../ingest/types';
import type { MapUnitItem, UnitItem } from '../domain/unit/schema';

/** A positions item as read with POSITION_ATTRIBUTES. */
export type PositionItem = Pick<StoredPosition, 'ts' | 'lat' | 'lon'> & Partial<Pick<StoredPosition, 'speed' | 'heading' | 'ignition'>>;

/** What a positions query reads: only what the answer carries. */
export const POSITION_ATTRIBUTES = ['ts', 'lat', 'lon', 'speed', 'heading', 'ignition'] as const;

const iso = (ms: number): string => new Date(ms).toISOString();
const orNull = <T>(value: T | undefined | null): T | null => (value === undefined ? null : value);

export function toUnitState(s: StoredState): UnitState {
  return {
    ts: iso(s.ts),
    lat: s.lat,
    lon: s.lon,
    speed: orNull(s.speed),
    heading: orNull(s.heading),
    alt: orNull(s.alt),
    ignition: orNull(s.ignition),
    movement: orNull(s.movement),
    extVolts: orNull(s.extVolts),
    batVolts: orNull(s.batVolts),
    din: s.din ?? {},
    dout: s.dout ?? {},
    odometer: orNull(s.odometer),
    engineSeconds: orNull(s.engineSeconds),
    lastSeen: iso(s.lastSeen),
  };
}

/** What both forms of a unit begin with: who it is and how its marker looks. */
function unitIdentity(item: MapUnitItem): Pick<MapUnit, 'imei' | 'name' | 'registrationNumber' | 'vehicleType' | 'color' | 'symbol'> {
  const marker = defaultMarker(item.vehicleType);
  return {
    imei: item.imei,
    name: item.name,
    registrationNumber: item.registrationNumber ?? null,
    vehicleType: item.vehicleType,
    color: item.color ?? marker.color,
    symbol: item.symbol ?? marker.symbol,
  };
}

export function toRealtimeUnit(item: UnitItem): RealtimeUnit {
  return {
    ...unitIdentity(item),
    driver: item.driver ?? null,
    departments: item.departments ?? [],
    doutLabels: item.doutLabels ?? {},
    operatingMode: item.operatingMode ?? null,
    state: item.state ? toUnitState(item.state) : null,
    ...(item.lockedBy !== undefined ? { lockedBy: item.lockedByName ?? '' } : {}),
  };
}

/** Six decimals of a degree, about 0.1 m: all a map marker needs, and a third of a long float's digits. */
const micro = (degrees: number) => Math.round(degrees * 1e6) / 1e6;

/** The map's view of a unit (`view=map`): only what the map draws and its list shows and searches, positions to 0.1 m. */
export function toMapUnit(item: MapUnitItem): MapUnit {
  const s = item.state;
  return {
    ...unitIdentity(item),
    operatingMode: item.operatingMode ?? null,
    state: s
      ? { ts: iso(s.ts), lat: micro(s.lat), lon: micro(s.lon), speed: orNull(s.speed), heading: orNull(s.heading), ignition: orNull(s.ignition), movement: orNull(s.movement), lastSeen: iso(s.lastSeen) }
      : null,
    ...(item.lockedBy !== undefined ? { lockedBy: item.lockedByName ?? '' } : {}),
  };
}

export function toPosition(p: PositionItem): Position {
  return {
    ts: iso(p.ts),
    lat: p.lat,
    lon: p.lon,
    speed: orNull(p.speed),
    heading: orNull(p.heading),
    ignition: orNull(p.ignition),
  };
}
