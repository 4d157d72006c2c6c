/**
 * Units as GeoJSON points for the map's one clustered source: position, name, the marker's colour
 * and symbol, the status and the heading of a moving unit. Only what the layers draw goes in;
 * everything else is read from the unit store by IMEI.
 */
import type { GeoJSONSourceDiff } from 'maplibre-gl';
import { defaultMarker, markerSymbols, type MapUnit, type MarkerSymbol } from '../../../../shared/schemas/tracking';
import type { UnitStatus } from '../../../../shared/unit-status';
import { statusAt } from './status-cache';

export interface UnitFeatureProperties {
  imei: string;
  /** The label at street zoom. */
  name: string;
  color: string;
  symbol: MarkerSymbol;
  status: UnitStatus;
  /** Degrees clockwise from north; 0 when unknown (the arrow is drawn only when moving). */
  heading: number;
}

export type UnitFeature = GeoJSON.Feature<GeoJSON.Point, UnitFeatureProperties>;

const HEX_COLOR = /^#[0-9a-f]{6}$/i;
const isSymbol = (value: string): value is MarkerSymbol => (markerSymbols as readonly string[]).includes(value);

/** The unit's colour and symbol, or its vehicle type's default for a value the map cannot draw. */
export function markerOf(unit: Pick<MapUnit, 'color' | 'symbol' | 'vehicleType'>): { color: string; symbol: MarkerSymbol } {
  const fallback = defaultMarker(unit.vehicleType);
  return {
    color: HEX_COLOR.test(unit.color) ? unit.color : fallback.color,
    symbol: isSymbol(unit.symbol) ? unit.symbol : fallback.symbol,
  };
}

/** The unit's point at `now` (its status depends on the time), or null before its first position. */
export function unitFeature(unit: MapUnit, now: number): UnitFeature | null {
  const state = unit.state;
  if (!state) return null;
  const { color, symbol } = markerOf(unit);
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [state.lon, state.lat] },
    properties: { imei: unit.imei, name: unit.name, color, symbol, status: statusAt(unit, now), heading: state.heading ?? 0 },
  };
}

/** The features' id in the source (its `promoteId`): updates name features by it. */
export const FEATURE_ID = 'imei';

const PROPERTIES = ['name', 'color', 'symbol', 'status', 'heading'] as const;

/**
 * What MapLibre must be told about units that changed, given the features it has: new points, gone
 * points, and for a moved unit its new position and only the properties that changed. Sending this
 * instead of the whole collection keeps the copy to MapLibre's worker as small as the change.
 */
export function sourceDiff(changes: Iterable<{ before: UnitFeature | undefined; after: UnitFeature | null }>): GeoJSONSourceDiff {
  const add: UnitFeature[] = [];
  const remove: string[] = [];
  const update: NonNullable<GeoJSONSourceDiff['update']> = [];
  for (const { before, after } of changes) {
    if (!after) {
      if (before) remove.push(before.properties.imei);
    } else if (!before) {
      add.push(after);
    } else {
      const [lon, lat] = after.geometry.coordinates;
      const moved = lon !== before.geometry.coordinates[0] || lat !== before.geometry.coordinates[1];
      const properties = PROPERTIES.filter((key) => after.properties[key] !== before.properties[key]).map((key) => ({ key, value: after.properties[key] }));
      if (!moved && !properties.length) continue;
      update.push({
        id: after.properties.imei,
        ...(moved ? { newGeometry: after.geometry } : {}),
        ...(properties.length ? { addOrUpdateProperties: properties } : {}),
      });
    }
  }
  return { ...(remove.length ? { remove } : {}), ...(add.length ? { add } : {}), ...(update.length ? { update } : {}) };
}
