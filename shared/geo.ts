/**
 * The distance between two fixes, as the trip detector, the event engine, place rules and the
 * geofence editor's circle (web/src/features/geofences/circle.ts) all measure it.
 *
 * Geometry of the trip detector. A haversine of a few lines rather than a package: the detector
 * needs only the distance between two fixes (three or four per position), and cheap-ruler,
 * @turf/distance or geolib would add a dependency to the ingest bundle for that one formula
 * (cheap-ruler's speed also needs a ruler per latitude, which a fleet across Sweden would rebuild
 * per position). The formula and radius are those of functions/ingest/filter.ts, so the ingest
 * filter and the detector agree on every distance.
 */

/** Mean Earth radius (IUGG), metres. */
export const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

/** Great-circle distance in metres between two points in degrees (haversine). */
export function distanceM(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const sLat = Math.sin((bLat - aLat) * RAD * 0.5);
  const sLon = Math.sin((bLon - aLon) * RAD * 0.5);
  const h = sLat * sLat + Math.cos(aLat * RAD) * Math.cos(bLat * RAD) * sLon * sLon;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
