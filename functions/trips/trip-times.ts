/**
 * Times trips stored before trips were timed (no `movingS`/`idleS`): the detector's own timing over
 * the trip's positions, where they still exist (detect.ts `tripTimesOf`). A merged trip gets the
 * sum of its two parts' times, and the parts their own, when both are found. Not a user's change:
 * the version stays; the write is conditional on the trip being the one read (its version) and still
 * untimed, so a trip replaced meanwhile (re-detection times its own) is left alone.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { timingMarginMs, tripTimesOf, type TripSettings } from './detect';
import { detectorPositions } from './detector-positions';
import type { TripItem, TripPart } from './trip-item';

/** Positions one trip's timing reads at most (a trip and time-till-parked on either side). */
const TIMING_MAX_POSITIONS = 50_000;

export const isUntimed = (trip: Pick<TripItem, 'movingS' | 'idleS'>): boolean => trip.movingS === undefined || trip.idleS === undefined;

async function timesOf(imei: string, span: Pick<TripPart, 'startTs' | 'stopTs'>, settings: TripSettings): Promise<{ movingS: number; idleS: number } | undefined> {
  const margin = timingMarginMs(settings);
  const { positions, truncated } = await detectorPositions(imei, span.startTs - margin, span.stopTs + margin, TIMING_MAX_POSITIONS);
  return truncated ? undefined : tripTimesOf(positions, span, settings);
}

/** Times one untimed trip from its positions; true when it was written. */
export async function fillTripTimes(trip: TripItem, settings: TripSettings): Promise<boolean> {
  if (!isUntimed(trip)) return false;
  const parts = trip.joined ?? [trip];
  const times = await Promise.all(parts.map((part) => timesOf(trip.imei, part, settings)));
  if (times.some((t) => t === undefined)) return false;
  const found = times as { movingS: number; idleS: number }[];
  const values: Record<string, unknown> = {
    ':v': trip.v,
    ':moving': found.reduce((sum, t) => sum + t.movingS, 0),
    ':idle': found.reduce((sum, t) => sum + t.idleS, 0),
  };
  const sets = ['movingS = :moving', 'idleS = :idle'];
  if (trip.joined) {
    found.forEach((t, i) => {
      sets.push(`joined[${i}].movingS = :m${i}`, `joined[${i}].idleS = :i${i}`);
      values[`:m${i}`] = t.movingS;
      values[`:i${i}`] = t.idleS;
    });
  }
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('trips'),
        Key: { imei: trip.imei, startTs: trip.startTs },
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'v = :v AND (attribute_not_exists(movingS) OR attribute_not_exists(idleS))',
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
