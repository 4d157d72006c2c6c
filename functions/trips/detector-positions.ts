/**
 * A unit's stored positions as trip detection reads them (functions/trips/detect.ts): re-detection
 * after late data (store-detected.ts) and the timing of trips stored before they were timed
 * (trip-times.ts). With the eco readings too, the event engine's episodes of a late buffer
 * (functions/events/stage.ts).
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import type { Position } from '../ingest/types';
import type { DetectorPosition } from './detect';

const DETECTOR_ATTRIBUTES = ['ts', 'lat', 'lon', 'speed', 'ignition', 'movement', 'odometer', 'eco'] as const;

/** A stored position with what the event engine's episodes read besides. */
export type StoredDrivePosition = DetectorPosition & Pick<Position, 'eco'>;

/** The unit's stored positions in [fromMs, toMs], oldest first (one Query, followed page by page), up to about `max`; `truncated` when more were left. */
export async function detectorPositions(imei: string, fromMs: number, toMs: number, max: number): Promise<{ positions: StoredDrivePosition[]; truncated: boolean }> {
  const positions: StoredDrivePosition[] = [];
  // Names for all: several of these are DynamoDB reserved words.
  const names = Object.fromEntries(DETECTOR_ATTRIBUTES.map((a, i) => [`#p${i}`, a]));
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('positions'),
        KeyConditionExpression: 'imei = :imei AND #p0 BETWEEN :from AND :to',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':imei': imei, ':from': fromMs, ':to': toMs },
        ProjectionExpression: Object.keys(names).join(', '),
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      // Ingest stores only positions with a fix (functions/ingest/filter.ts).
      positions.push({
        ts: Number(item['ts']),
        lat: Number(item['lat']),
        lon: Number(item['lon']),
        fix: true,
        speed: item['speed'] as number | undefined,
        ignition: item['ignition'] as boolean | undefined,
        movement: item['movement'] as boolean | undefined,
        odometer: item['odometer'] as number | undefined,
        eco: item['eco'] as Position['eco'],
      });
    }
    start = page.LastEvaluatedKey;
  } while (start && positions.length < max);
  return { positions, truncated: start !== undefined };
}
