/**
 * The merge rules of spec sections 4, 5 and 8, without I/O. Two trips merge when they are of the
 * same unit and local day, have the same driver and type, neither is merged already, and the
 * second is the one directly after the first (checked against the table by the service, since it
 * needs a read). Each refusal has its message key; the first rule that fails answers.
 */
import { tripMessageKeys as keys, type TripMessageKey } from '../../shared/schemas/trips-messages';
import { localDayOf } from '../../shared/local-time';
import { isMerged, joinChanges, partOf, type TripItem } from './trip-item';

export function mergeRefusal(first: TripItem, second: TripItem, zone: string): TripMessageKey | null {
  if (first.imei !== second.imei || first.startTs === second.startTs) return keys.NoTripBelow;
  if (isMerged(first) || isMerged(second)) return keys.CannotMergeAlreadyMerged;
  if (localDayOf(first.startTs, zone) !== localDayOf(second.startTs, zone)) return keys.CannotMergeDifferentDates;
  if ((first.driverId ?? null) !== (second.driverId ?? null)) return keys.CannotMergeDifferentDrivers;
  if (first.type !== second.type) {
    const types = new Set([first.type, second.type]);
    return types.has('private') && types.has('business') ? keys.CannotMergePrivateWithBusiness : keys.CannotMergeDifferentTypes;
  }
  return null;
}

/**
 * The merged trip: the first one's start and the second one's stop, the distances added, the
 * text fields of the first (or the second's where the first has none), both trips' change logs,
 * and both trips' own records in `joined` for split.
 */
export function mergedTrip(first: TripItem, second: TripItem): TripItem {
  const edited = [...new Set([...(first.edited ?? []), ...(second.edited ?? [])])].sort();
  return {
    ...first,
    stopTs: second.stopTs,
    stopLat: second.stopLat,
    stopLon: second.stopLon,
    stopAddress: second.stopAddress,
    distanceM: first.distanceM + second.distanceM,
    stopCounterM: second.stopCounterM,
    counterSource: first.counterSource === second.counterSource ? first.counterSource : 'computed',
    maxSpeedKmh: Math.max(first.maxSpeedKmh ?? 0, second.maxSpeedKmh ?? 0) || undefined,
    // The parked time between the two is neither: the parts' own figures add up, when both have them.
    movingS: first.movingS !== undefined && second.movingS !== undefined ? first.movingS + second.movingS : undefined,
    idleS: first.idleS !== undefined && second.idleS !== undefined ? first.idleS + second.idleS : undefined,
    purpose: first.purpose ?? second.purpose,
    note: first.note ?? second.note,
    passengers: first.passengers ?? second.passengers,
    project: first.project ?? second.project,
    edited: edited.length ? edited : undefined,
    expiresAt: Math.max(first.expiresAt ?? 0, second.expiresAt ?? 0) || undefined,
    changes: joinChanges(first.changes, second.changes),
    joined: [partOf(first), partOf(second)],
    v: first.v + 1,
  };
}
