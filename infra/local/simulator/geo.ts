/**
 * Geometry on the scale of a city: great-circle distances and bearings, and a local flat
 * projection for short segments (a few kilometres, where its error is centimetres).
 */
export interface LatLon {
  lat: number;
  lon: number;
}

const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

export function distanceM(a: LatLon, b: LatLon): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLon = (b.lon - a.lon) * RAD;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(s)));
}

/** Initial bearing from a to b, degrees clockwise from north in [0, 360). */
export function bearingDeg(a: LatLon, b: LatLon): number {
  const φ1 = a.lat * RAD;
  const φ2 = b.lat * RAD;
  const Δλ = (b.lon - a.lon) * RAD;
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return ((Math.atan2(y, x) / RAD) % 360 + 360) % 360;
}

/** The smallest angle between two bearings, 0..180. */
export function turnDeg(from: number, to: number): number {
  const d = Math.abs(from - to) % 360;
  return d > 180 ? 360 - d : d;
}

/** The point a fraction of the way from a to b (linear: segments are short). */
export function lerp(a: LatLon, b: LatLon, f: number): LatLon {
  return { lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f };
}

/** The point `metres` away from p towards `bearing`. */
export function offset(p: LatLon, metres: number, bearing: number): LatLon {
  const dLat = (metres * Math.cos(bearing * RAD)) / EARTH_RADIUS_M / RAD;
  const dLon = (metres * Math.sin(bearing * RAD)) / (EARTH_RADIUS_M * Math.cos(p.lat * RAD)) / RAD;
  return { lat: p.lat + dLat, lon: p.lon + dLon };
}

/** Where on segment a-b the point p is nearest: the fraction along it and the distance in metres. */
export function projectOnSegment(p: LatLon, a: LatLon, b: LatLon): { fraction: number; distance: number } {
  const kx = Math.cos(p.lat * RAD) * RAD * EARTH_RADIUS_M;
  const ky = RAD * EARTH_RADIUS_M;
  const ax = (a.lon - p.lon) * kx;
  const ay = (a.lat - p.lat) * ky;
  const bx = (b.lon - p.lon) * kx;
  const by = (b.lat - p.lat) * ky;
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const f = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
  return { fraction: f, distance: Math.hypot(ax + dx * f, ay + dy * f) };
}
