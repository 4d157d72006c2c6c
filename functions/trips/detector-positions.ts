/**
 * A unit's stored positions as trip detection reads them (functions/trips/detect.ts): re-detection
 * after late data (store-detected.ts) and the timing of trips stored before they were timed
 * (trip-times.ts). With the eco readings too, the event engine's episodes of a late buffer
 * (functions/events/stage.ts).
 */
import { readPositions } from '../ingest/position-query';
import type { Position } from '../ingest/types';
import type { DetectorPosition } from './detect';

const DETECTOR_ATTRIBUTES = ['ts', 'lat', 'lon', 'speed', 'ignition', 'movement', 'odometer', 'eco'] as const;

/** A stored position with what the event engine's episodes read besides. */
export type StoredDrivePosition = DetectorPosition & Pick<Position, 'eco'>;

/** The unit's stored positions in [fromMs, toMs], oldest first, up to `max`; `truncated` when more were left. */
export async function detectorPositions(imei: string, fromMs: number, toMs: number, max: number): Promise<{ positions: StoredDrivePosition[]; truncated: boolean }> {
  const read = await readPositions(imei, fromMs, toMs, { attributes: DETECTOR_ATTRIBUTES, consistent: true, max });
  return {
    // Ingest stores only positions with a fix (functions/ingest/filter.ts).
    positions: read.positions.map((p) => ({ ts: p.ts, lat: p.lat, lon: p.lon, fix: true, speed: p.speed, ignition: p.ignition, movement: p.movement, odometer: p.odometer, eco: p.eco })),
    truncated: read.truncated,
  };
}
