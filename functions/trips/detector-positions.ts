/**
 * A unit's stored positions as trip detection reads them (functions/trips/detect.ts): re-detection
 * after late data (store-detected.ts) and the timing of trips stored before they were timed
 * (trip-times.ts). With the eco readings too, the event engine's episodes of a late buffer
 * (functions/events/stage.ts).
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import { positionOfItem, positionProjection } from '../ingest/position-codec';
import type { Position } from '../ingest/types';
import type { DetectorPosition } from './detect';

const DETECTOR_ATTRIBUTES = ['ts', 'lat', 'lon', 'speed', 'ignition', 'movement', 'odometer', 'eco'] as const;

/** A stored position with what the event engine's episodes read besides. */
export type StoredDrivePosition = DetectorPosition & Pick<Position, 'eco'>;

/** The unit's stored positions in [fromMs, toMs], oldest first (one Query, followed page by page), up to about `max`; `truncated` when more were left. */
export async function detectorPositions(imei: string, fromMs: number, toMs: number, max: number): Promise<{ positions: StoredDrivePosition[]; truncated: boolean }> {
  const positions: StoredDrivePosition[] = [];
  // Names for all: several of these are DynamoDB reserved words.
  const projection = positionProjection(DETECTOR_ATTRIBUTES);
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('positions'),
        KeyConditionExpression: 'imei = :imei AND #p0 BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':imei': imei, ':from': fromMs, ':to': toMs },
        ...projection,
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const p = positionOfItem(item);
      // Ingest stores only positions with a fix (functions/ingest/filter.ts).
      positions.push({ ts: p.ts, lat: p.lat, lon: p.lon, fix: true, speed: p.speed, ignition: p.ignition, movement: p.movement, odometer: p.odometer, eco: p.eco });
    }
    start = page.LastEvaluatedKey;
  } while (start && positions.length < max);
  return { positions, truncated: start !== undefined };
}
