/**
 * Reading events back: one unit's (its partition, newest first) or a whole account's (the
 * `byAccount` index). Only events of the unit's current owner since its registration are
 * answered: an IMEI registered again starts with no events.
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import { logger } from '../platform/logger';
import { registeredAtOf, type UnitItem } from '../domain/unit/schema';
import type { EventType } from '../../shared/schemas/events';
import { isEcoEventType, type EcoEvent } from '../../shared/eco';
import { eventItemSchema, eventKeyRange, type EventItem } from './event-item';

export interface EventQuery {
  fromMs: number;
  toMs: number;
  type?: EventType | undefined;
  limit: number;
  /** A strongly consistent read (a unit's partition only). */
  consistent?: boolean;
}

async function queryNewestFirst(input: { index?: string; key: string; value: string; accountId: string }, q: EventQuery): Promise<{ items: EventItem[]; more: boolean }> {
  const [lo, hi] = eventKeyRange(q.fromMs, q.toMs);
  const byUnit = !input.index;
  const filters = [...(byUnit ? ['accountId = :account'] : []), ...(q.type ? ['#type = :type'] : [])];
  const items: EventItem[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('events'),
        ...(input.index ? { IndexName: input.index } : {}),
        KeyConditionExpression: '#pk = :pk AND sk BETWEEN :lo AND :hi',
        // By unit, only the unit's current owner's events; by account, the key says it already.
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ExpressionAttributeNames: { '#pk': input.key, ...(q.type ? { '#type': 'type' } : {}) },
        ExpressionAttributeValues: { ':pk': input.value, ':lo': lo, ':hi': hi, ...(byUnit ? { ':account': input.accountId } : {}), ...(q.type ? { ':type': q.type } : {}) },
        ScanIndexForward: false,
        ...(q.consistent && !input.index ? { ConsistentRead: true } : {}),
        ExclusiveStartKey: start,
      }),
    );
    for (const raw of page.Items ?? []) {
      const parsed = eventItemSchema.safeParse(raw);
      if (!parsed.success) {
        logger.warn('unreadable event item skipped', { imei: raw['imei'], sk: raw['sk'] });
        continue;
      }
      items.push(parsed.data);
      if (items.length > q.limit) return { items: items.slice(0, q.limit), more: true };
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return { items, more: false };
}

/** A unit's events in a period, newest first, at most `limit` (and whether there were more). */
export async function unitEvents(unit: Pick<UnitItem, 'imei' | 'accountId' | 'createdAt'>, q: EventQuery): Promise<{ items: EventItem[]; more: boolean }> {
  const fromMs = Math.max(q.fromMs, registeredAtOf(unit));
  if (fromMs > q.toMs) return { items: [], more: false };
  return queryNewestFirst({ key: 'imei', value: unit.imei, accountId: unit.accountId }, { ...q, fromMs });
}

/**
 * Events of several units, newest first: the account's index when the caller sees every unit,
 * otherwise one Query per unit merged. Events of a unit from before its registration are left out.
 */
export async function eventsOfUnits(accountId: string, units: readonly UnitItem[], allOfAccount: boolean, q: EventQuery): Promise<{ items: EventItem[]; more: boolean }> {
  if (allOfAccount) {
    const registered = new Map(units.map((u) => [u.imei, registeredAtOf(u)]));
    const found = await queryNewestFirst({ index: 'byAccount', key: 'accountId', value: accountId, accountId }, { ...q, limit: q.limit });
    const items = found.items.filter((e) => registered.has(e.imei) && e.ts >= (registered.get(e.imei) ?? Infinity));
    return { items, more: found.more };
  }
  const lists = await Promise.all(units.map((u) => unitEvents(u, q)));
  const items = lists.flatMap((l) => l.items).sort((a, b) => (a.sk < b.sk ? 1 : a.sk > b.sk ? -1 : a.imei.localeCompare(b.imei)));
  return { items: items.slice(0, q.limit), more: items.length > q.limit || lists.some((l) => l.more) };
}

/**
 * The account's alarms (events sent to alarm receivers) in a period, newest first, at most `limit`
 * (and whether there were more): one Query of the `byAccount` index, only the unit and time read.
 */
export async function accountAlarms(accountId: string, fromMs: number, toMs: number, limit: number): Promise<{ items: { imei: string; ts: number }[]; more: boolean }> {
  const [lo, hi] = eventKeyRange(fromMs, toMs);
  const items: { imei: string; ts: number }[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('events'),
        IndexName: 'byAccount',
        KeyConditionExpression: 'accountId = :a AND sk BETWEEN :lo AND :hi',
        FilterExpression: 'alarm = :yes',
        ProjectionExpression: 'imei, ts',
        ExpressionAttributeValues: { ':a': accountId, ':lo': lo, ':hi': hi, ':yes': true },
        ScanIndexForward: false,
        ExclusiveStartKey: start,
      }),
    );
    for (const raw of page.Items ?? []) {
      items.push({ imei: String(raw['imei']), ts: Number(raw['ts']) });
      if (items.length > limit) return { items: items.slice(0, limit), more: true };
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return { items, more: false };
}

/** How long before a stretch an overspeed episode overlapping it may have started. */
export const EPISODE_REACH_MS = 2 * 3_600_000;

/** Eco events read for one unit's stretch: a year of a unit recording 250 a day. */
const ECO_EVENTS_MAX = 100_000;

/**
 * A unit's eco events (shared/eco.ts) from `fromMs` to `toMs` in time order, strongly consistent: an
 * episode is stored at its start, so the reach before `fromMs` takes in one that began earlier.
 */
export async function unitEcoEvents(unit: Pick<UnitItem, 'imei' | 'accountId' | 'createdAt'>, fromMs: number, toMs: number, reachMs = EPISODE_REACH_MS): Promise<EcoEvent[]> {
  const { items, more } = await unitEvents(unit, { fromMs: fromMs - reachMs, toMs, limit: ECO_EVENTS_MAX, consistent: true });
  if (more) logger.warn('more eco events than read; the oldest are not counted', { imei: unit.imei, fromMs, toMs, read: ECO_EVENTS_MAX });
  const eco: EcoEvent[] = [];
  for (const e of items) if (isEcoEventType(e.type)) eco.push({ type: e.type, ts: e.ts, lat: e.lat, lon: e.lon, details: e.details });
  return eco.reverse();
}
