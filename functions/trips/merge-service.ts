/**
 * Merge and split as DynamoDB transactions conditional on the versions read, so that of two
 * concurrent merges (or a merge and a split, an edit, an attestation, a re-detection) touching
 * the same trip exactly one wins; the loser gets 409 CouldNotSplitOrMerge and nothing of it is
 * written.
 *
 * Merge: the first trip's item becomes the merged trip (its key stays, so its id stays), holding
 * both trips' own records in `joined`; the second trip's item is deleted. Split puts both records
 * back as they were, the first in place of the merged trip and the second at its own start.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { tripMessageKeys as keys } from '../../shared/schemas/trips-messages';
import { lostTransactionRace } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { ConflictError, ValidationError } from '../platform/errors';
import { TripIsAttestedError } from './errors';
import { mergedTrip, mergeRefusal } from './merge-rules';
import { isAttested, joinChanges, spanText, type TripItem } from './trip-item';
import { anyTripBetween } from './trip-repository';
import { tripsChanged } from './unit-days';
import type { Ports } from '../platform/ports';

/** Who merges or splits, and when: the change log's entry. */
export interface TripActor {
  by: string;
  at: number;
}

const refuse = (key: string) => new ValidationError({ ids: [key] }, key);
const couldNot = () => new ConflictError(keys.CouldNotSplitOrMerge);

const UNCHANGED = 'v = :v AND attribute_not_exists(attestationId) AND attribute_not_exists(joined)';

/** Merges two trips of one unit (in either order); answers the merged trip. */
export async function mergeTrips(a: TripItem, b: TripItem, zone: string, actor: TripActor, ports: Pick<Ports, 'queues'>): Promise<TripItem> {
  const [first, second] = a.startTs <= b.startTs ? [a, b] : [b, a];
  if (isAttested(first) || isAttested(second)) throw new TripIsAttestedError();
  const refusal = mergeRefusal(first, second, zone);
  if (refusal) throw refuse(refusal);
  if (await anyTripBetween(first.imei, first.startTs, second.startTs)) throw refuse(keys.NoTripBelow);

  const joined = mergedTrip(first, second);
  // The merged trip's log: both trips' (their own stay with them in `joined`), then the merge.
  const merged: TripItem = { ...joined, changes: joinChanges(joined.changes, [{ ...actor, field: 'merged', from: spanText(first), to: spanText(second) }]) };
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName('trips'), Item: merged, ConditionExpression: UNCHANGED, ExpressionAttributeValues: { ':v': first.v } } },
          {
            Delete: {
              TableName: tableName('trips'),
              Key: { imei: second.imei, startTs: second.startTs },
              ConditionExpression: UNCHANGED,
              ExpressionAttributeValues: { ':v': second.v },
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (lostTransactionRace(error)) throw couldNot();
    throw error;
  }
  await tripsChanged(ports, first.accountId, first.imei, [first.startTs, second.startTs]);
  return merged;
}

/** Undoes the merge of a merged trip; answers the two trips it joined, each with its own change log and the split. */
export async function splitTrip(trip: TripItem, actor: TripActor, ports: Pick<Ports, 'queues'>): Promise<[TripItem, TripItem]> {
  if (isAttested(trip)) throw new TripIsAttestedError();
  if (!trip.joined) throw refuse(keys.CouldNotSplitOrMerge);
  const [firstPart, secondPart] = trip.joined;
  const restore = (part: typeof firstPart, v: number): TripItem => ({
    ...part,
    imei: trip.imei,
    accountId: trip.accountId,
    joined: undefined,
    attestationId: undefined,
    changes: joinChanges(part.changes, [{ ...actor, field: 'split', from: spanText(trip), to: spanText(part) }]),
    v,
  });
  const first = restore(firstPart, trip.v + 1);
  const second = restore(secondPart, trip.v + 1);
  try {
    await dynamo().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName('trips'),
              Item: first,
              ConditionExpression: 'v = :v AND attribute_not_exists(attestationId) AND attribute_exists(joined)',
              ExpressionAttributeValues: { ':v': trip.v },
            },
          },
          // The second trip's start must still be free (a re-detection may have put a trip there).
          { Put: { TableName: tableName('trips'), Item: second, ConditionExpression: 'attribute_not_exists(imei)' } },
        ],
      }),
    );
  } catch (error) {
    if (lostTransactionRace(error)) throw couldNot();
    throw error;
  }
  await tripsChanged(ports, trip.accountId, trip.imei, [first.startTs, second.startTs]);
  return [first, second];
}
