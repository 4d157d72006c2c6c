/**
 * Ingest's writes to the `units` item: a state transition conditional on the item's revision,
 * and the claim and removal of the side effects it decided on (functions/ingest/transitions.ts).
 */
import { BatchExecuteStatementCommand, UpdateCommand, type BatchExecuteStatementCommandOutput } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../../platform/conditions';
import { dynamo, tableName } from '../../platform/db';
import type { PendingEffect, StoredUnitState, UnitItem } from './schema';

/** What one ingest transition writes: the new state, every stage's state, and the effects not yet sent. */
export interface UnitTransition {
  state: StoredUnitState;
  stages: Record<string, unknown>;
  effects: Record<string, PendingEffect>;
}

/**
 * Writes a transition computed from `from` (the item as read): only if the item is still that
 * registration at that revision, so a transition is applied once, from the state it was computed
 * from, however often a batch is retried. True when written; false when the item moved meanwhile
 * (or is gone, or the IMEI was registered again): read it again and recompute.
 */
export async function commitUnitTransition(from: Pick<UnitItem, 'imei' | 'accountId' | 'createdAt' | 'rev'>, next: UnitTransition): Promise<boolean> {
  const rev = from.rev ?? 0;
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('units'),
        Key: { imei: from.imei },
        UpdateExpression: 'SET #state = :state, stages = :stages, effects = :effects, #rev = :next',
        ConditionExpression: [
          'accountId = :account',
          from.createdAt === undefined ? 'attribute_not_exists(createdAt)' : 'createdAt = :created',
          from.rev === undefined ? 'attribute_not_exists(#rev)' : '#rev = :rev',
        ].join(' AND '),
        ExpressionAttributeNames: { '#state': 'state', '#rev': 'rev' },
        ExpressionAttributeValues: {
          ':state': next.state,
          ':stages': next.stages,
          ':effects': next.effects,
          ':next': rev + 1,
          ':account': from.accountId,
          ...(from.createdAt === undefined ? {} : { ':created': from.createdAt }),
          ...(from.rev === undefined ? {} : { ':rev': rev }),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** BatchExecuteStatement's limit per request. */
export const TRANSITIONS_PER_REQUEST = 25;

/**
 * The same conditional write as commitUnitTransition, as one PartiQL UPDATE (its WHERE is the
 * condition: an item that is missing, of another registration or at another revision is not
 * written, ConditionalCheckFailed).
 */
function transitionStatement(table: string, from: Pick<UnitItem, 'imei' | 'accountId' | 'createdAt' | 'rev'>, next: UnitTransition) {
  const rev = from.rev ?? 0;
  const where = ['"imei" = ?', '"accountId" = ?', from.createdAt === undefined ? '"createdAt" IS MISSING' : '"createdAt" = ?', from.rev === undefined ? '"rev" IS MISSING' : '"rev" = ?'];
  return {
    Statement: `UPDATE "${table}" SET "state" = ? SET "stages" = ? SET "effects" = ? SET "rev" = ? WHERE ${where.join(' AND ')}`,
    Parameters: [
      next.state,
      next.stages,
      next.effects,
      rev + 1,
      from.imei,
      from.accountId,
      ...(from.createdAt === undefined ? [] : [from.createdAt]),
      ...(from.rev === undefined ? [] : [rev]),
    ],
  };
}

/**
 * Many units' transitions (one each), written together: up to `perRequest` (at most 25) conditional
 * updates per BatchExecuteStatement request instead of a request each, every update applied or
 * refused on its own as commitUnitTransition's; with `perRequest` 1, or a list of one, an
 * UpdateItem each. `limit` runs each request (a concurrency limiter). Answers, in order, true when
 * written and false when the item moved meanwhile; an update the batch could not run for another
 * reason (throttled, say) is written alone with commitUnitTransition, so that only infrastructure
 * failures throw.
 */
export async function commitUnitTransitions(
  list: ReadonlyArray<{ from: Pick<UnitItem, 'imei' | 'accountId' | 'createdAt' | 'rev'>; next: UnitTransition }>,
  limit: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
  perRequest: number = TRANSITIONS_PER_REQUEST,
): Promise<boolean[]> {
  if (list.length === 1 || perRequest <= 1) return Promise.all(list.map(({ from, next }) => limit(() => commitUnitTransition(from, next))));
  const size = Math.min(perRequest, TRANSITIONS_PER_REQUEST);
  const table = tableName('units');
  const written: boolean[] = [];
  const chunks: number[] = [];
  for (let i = 0; i < list.length; i += size) chunks.push(i);
  await Promise.all(
    chunks.map(async (start) => {
      const chunk = list.slice(start, start + size);
      const out: BatchExecuteStatementCommandOutput = await limit(() =>
        dynamo().send(new BatchExecuteStatementCommand({ Statements: chunk.map(({ from, next }) => transitionStatement(table, from, next)) })),
      );
      await Promise.all(
        chunk.map(async ({ from, next }, j) => {
          const response = out.Responses?.[j];
          const code = response ? response.Error?.Code : 'NoResponse';
          written[start + j] = code === undefined ? true : code === 'ConditionalCheckFailed' ? false : await limit(() => commitUnitTransition(from, next));
        }),
      );
    }),
  );
  return written;
}

/**
 * Claims a pending effect before it is sent: true for exactly one caller, however many retries
 * race for it. A claimed effect is never sent again (at most once even if the sender dies after
 * the claim); together with the transition that created it exactly once, it is sent once.
 */
export async function claimUnitEffect(imei: string, effectId: string): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('units'),
        Key: { imei },
        UpdateExpression: 'SET effects.#id.#status = :sending',
        ConditionExpression: 'effects.#id.#status = :pending',
        ExpressionAttributeNames: { '#id': effectId, '#status': 'status' },
        ExpressionAttributeValues: { ':sending': 'sending', ':pending': 'pending' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Drops a sent (or abandoned) effect from the unit. */
export async function removeUnitEffect(imei: string, effectId: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('units'),
      Key: { imei },
      UpdateExpression: 'REMOVE effects.#id',
      ConditionExpression: 'attribute_exists(effects.#id)',
      ExpressionAttributeNames: { '#id': effectId },
    }),
  ).catch((error: unknown) => {
    if (!isConditionFailure(error)) throw error;
  });
}
