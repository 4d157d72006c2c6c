/**
 * A unit's stored positions over a period, in time order, whatever form their items have
 * (functions/ingest/position-codec.ts): a chunk of several positions keyed by its oldest, or one
 * position an item. Every reader of the `positions` table reads through here.
 *
 * A chunk holds positions up to CHUNK_SPAN_MS after its key, so the Query starts that much before
 * the period, and a position read is only placed once no item still to come can hold an earlier
 * one (a later one, read backwards): items come in key order, and an item keyed k holds positions
 * in [k, k + CHUNK_SPAN_MS]. A time stored twice (a late position put beside a chunk that holds it
 * too, say) is read once.
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import { CHUNK_ATTRIBUTE, CHUNK_SPAN_MS, positionProjection, positionsOfItem, type StoredPosition } from './position-codec';

export interface PositionRead {
  /** The attributes the reader needs of items written before positions were packed (positionProjection). */
  attributes: readonly string[];
  /** Newest first. */
  backwards?: boolean;
  consistent?: boolean;
  /** At most this many positions; `truncated` says whether more lie in the period. */
  max?: number;
  /** Only the positions kept in chunks. */
  chunksOnly?: boolean;
}

export interface PositionsRead {
  positions: StoredPosition[];
  truncated: boolean;
}

/**
 * Items read per page beyond the positions still wanted: those within CHUNK_SPAN_MS before the
 * period's start, or, read backwards, the items a read passes before it may place the newest it
 * found (CHUNK_SPAN_MS of them: 30 at one position every 10 s, so that a read for the last
 * position before an instant takes one page).
 */
const LOOKAHEAD_ITEMS = { forwards: 25, backwards: 50 };

/** The unit's stored positions with `fromMs <= ts <= toMs`, oldest first (newest first `backwards`), each time once. */
export async function readPositions(imei: string, fromMs: number, toMs: number, read: PositionRead): Promise<PositionsRead> {
  const max = read.max ?? Infinity;
  const backwards = read.backwards === true;
  const positions: StoredPosition[] = [];
  /** Read, in the period, and not yet placed: an item still to come may hold one to be placed before them. */
  let pending: StoredPosition[] = [];
  let last: number | undefined;
  /** Places the pending positions before `bound` (after it, backwards), or all of them. */
  const place = (bound?: number) => {
    pending.sort(backwards ? (a, b) => b.ts - a.ts : (a, b) => a.ts - b.ts);
    let i = 0;
    for (; i < pending.length && positions.length <= max; i++) {
      const p = pending[i] as StoredPosition;
      if (bound !== undefined && (backwards ? p.ts <= bound : p.ts >= bound)) break;
      if (p.ts === last) continue;
      last = p.ts;
      positions.push(p);
    }
    pending = i ? pending.slice(i) : pending;
  };
  const projection = positionProjection(read.attributes);
  const chunksOnly = read.chunksOnly
    ? { FilterExpression: 'attribute_exists(#chunk)', ExpressionAttributeNames: { ...projection.ExpressionAttributeNames, '#chunk': CHUNK_ATTRIBUTE } }
    : {};
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('positions'),
        KeyConditionExpression: 'imei = :imei AND #p0 BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':imei': imei, ':from': fromMs - CHUNK_SPAN_MS, ':to': toMs },
        ...projection,
        ...chunksOnly,
        ScanIndexForward: !backwards,
        ...(read.consistent ? { ConsistentRead: true } : {}),
        ...(Number.isFinite(max) ? { Limit: max + 1 - positions.length + pending.length + LOOKAHEAD_ITEMS[backwards ? 'backwards' : 'forwards'] } : {}),
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const key = Number(item['ts']);
      place(backwards ? key + CHUNK_SPAN_MS : key);
      if (positions.length > max) break;
      for (const p of positionsOfItem(item)) if (p.ts >= fromMs && p.ts <= toMs) pending.push(p);
    }
    start = page.LastEvaluatedKey;
  } while (start && positions.length <= max);
  if (positions.length <= max) place();
  const truncated = positions.length > max;
  if (truncated) positions.length = max;
  return { positions, truncated };
}
