/**
 * The geometry of the circle editor: a circle of a radius in metres drawn as a polygon on the
 * sphere, the point at a distance and bearing from another (where the radius handle sits) and the
 * distance between two points (the radius the handle was dragged to). Spherical formulas with the
 * mean Earth radius of shared/geo.ts, which the event engine measures with: a zone of at most 10 km
 * is drawn to within centimetres of what the engine checks.
 */
import { EARTH_RADIUS_M, distanceM as haversineM } from '../../../../shared/geo';

export interface LatLon {
  lat: number;
  lon: number;
}

const RAD = Math.PI / 180;

/** Great-circle distance in metres. */
export const distanceM = (a: LatLon, b: LatLon): number => haversineM(a.lat, a.lon, b.lat, b.lon);

/** The point `distance` metres from `from` in the direction `bearing` (degrees clockwise from north). */
export function destination(from: LatLon, bearing: number, distance: number): LatLon {
  const d = distance / EARTH_RADIUS_M;
  const b = bearing * RAD;
  const lat1 = from.lat * RAD;
  const lon1 = from.lon * RAD;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lon2 = lon1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  // Longitude back into -180..180.
  const lon = ((((lon2 / RAD + 540) % 360) + 360) % 360) - 180;
  return { lat: lat2 / RAD, lon };
}

/** The circle as a closed GeoJSON ring of [lon, lat] with `steps` corners. */
export function circleRing(center: LatLon, radius: number, steps = 72): [number, number][] {
  const ring: [number, number][] = [];
  for (let i = 0; i < steps; i++) {
    const p = destination(center, (360 * i) / steps, radius);
    ring.push([p.lon, p.lat]);
  }
  ring.push(ring[0] as [number, number]);
  return ring;
}

/** The circle's bounding box, [[west, south], [east, north]]. */
export function circleBounds(center: LatLon, radius: number): [[number, number], [number, number]] {
  const north = destination(center, 0, radius).lat;
  const south = destination(center, 180, radius).lat;
  const east = destination(center, 90, radius).lon;
  const west = destination(center, 270, radius).lon;
  return [
    [west, south],
    [east, north],
  ];
}

/** A radius within the limits, whole metres. */
export function clampRadius(radius: number, min: number, max: number): number {
  if (!Number.isFinite(radius)) return min;
  return Math.min(max, Math.max(min, Math.round(radius)));
}

/** Coordinates as stored: 6 decimals (about 0.1 m). */
export function roundCoordinate(value: number): number {
  return Math.round(value * 1e6) / 1e6 + 0;
}

/** `from` moved `metres` north (dy) and east (dx): the keyboard's nudge of the centre. */
export function nudge(from: LatLon, dxMetres: number, dyMetres: number): LatLon {
  const step = Math.hypot(dxMetres, dyMetres);
  if (step === 0) return from;
  const bearing = (Math.atan2(dxMetres, dyMetres) / RAD + 360) % 360;
  const p = destination(from, bearing, step);
  return { lat: roundCoordinate(p.lat), lon: roundCoordinate(p.lon) };
}
