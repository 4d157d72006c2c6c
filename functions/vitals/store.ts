/**
 * The web vitals kept for the support page (docs/decisions/0042-web-vitals.md), the same on AWS
 * and in the embedded runtime: per UTC day (`day`) one item per hour, metric and route pattern
 * (`sk` = `<yyyy-MM-ddTHH>#<metric>#<route>`) with the number of measurements (`n`), one count per
 * rating (`good`, `ni`, `poor`) and one per histogram bin (`b<bin>`). Each report adds to its items
 * with UpdateItem ADD, so concurrent reports never lose a count and nothing is read first; an item
 * expires 8 days after its hour.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { vitalNames, webVitalsPeriods, type VitalName, type VitalRating, type VitalsBatch, type WebVitalsPeriod } from '../../shared/web-vitals';
import type { VitalSummary, WebVitalsReport } from '../../shared/schemas/web-vitals';
import { dynamo, tableName } from '../platform/db';
import { addBins, binOf, percentileOf, type Bins } from './histogram';

const HOUR_MS = 3_600_000;
const KEEP_SECONDS = 8 * 24 * 3600;
const ratingAttribute: Readonly<Record<VitalRating, string>> = { good: 'good', 'needs-improvement': 'ni', poor: 'poor' };
const BIN_PREFIX = 'b';

const hourOf = (time: Date): string => time.toISOString().slice(0, 13);

interface Increment {
  day: string;
  sk: string;
  name: VitalName;
  route: string;
  counts: Map<string, number>;
  /** Epoch seconds the item expires at: 8 days after its hour. */
  expiresAt: number;
}

/** What a report adds, per item: the same hour, metric and route are one update. */
export function incrementsOf(batch: VitalsBatch, now: Date): Increment[] {
  const hour = hourOf(now);
  const hourStart = Date.parse(`${hour}:00:00Z`);
  const byKey = new Map<string, Increment>();
  for (const entry of batch.entries) {
    const sk = `${hour}#${entry.name}#${entry.route}`;
    let inc = byKey.get(sk);
    if (!inc) {
      inc = { day: hour.slice(0, 10), sk, name: entry.name, route: entry.route, counts: new Map(), expiresAt: Math.floor(hourStart / 1000) + KEEP_SECONDS };
      byKey.set(sk, inc);
    }
    for (const attr of ['n', ratingAttribute[entry.rating], `${BIN_PREFIX}${binOf(entry.name, entry.value)}`]) {
      inc.counts.set(attr, (inc.counts.get(attr) ?? 0) + 1);
    }
  }
  return [...byKey.values()];
}

/** Adds a report's measurements to the hour's items. */
export async function recordVitals(batch: VitalsBatch, now: Date): Promise<void> {
  await Promise.all(
    incrementsOf(batch, now).map((inc) => {
      const names: Record<string, string> = {};
      const values: Record<string, unknown> = { ':name': inc.name, ':route': inc.route, ':expires': inc.expiresAt };
      const adds = [...inc.counts].map(([attr, count], i) => {
        names[`#a${i}`] = attr;
        values[`:a${i}`] = count;
        return `#a${i} :a${i}`;
      });
      return dynamo().send(
        new UpdateCommand({
          TableName: tableName('webVitals'),
          Key: { day: inc.day, sk: inc.sk },
          UpdateExpression: `SET metric = :name, #route = :route, expiresAt = if_not_exists(expiresAt, :expires) ADD ${adds.join(', ')}`,
          ExpressionAttributeNames: { ...names, '#route': 'route' },
          ExpressionAttributeValues: values,
        }),
      );
    }),
  );
}

interface Tally {
  count: number;
  good: number;
  ni: number;
  poor: number;
  bins: Bins;
}
const emptyTally = (): Tally => ({ count: 0, good: 0, ni: 0, poor: 0, bins: new Map() });

function addItem(tally: Tally, item: Record<string, unknown>): void {
  tally.count += Number(item['n'] ?? 0);
  tally.good += Number(item['good'] ?? 0);
  tally.ni += Number(item['ni'] ?? 0);
  tally.poor += Number(item['poor'] ?? 0);
  const bins: [number, number][] = [];
  for (const [attr, value] of Object.entries(item)) {
    if (/^b\d+$/.test(attr)) bins.push([Number(attr.slice(BIN_PREFIX.length)), Number(value)]);
  }
  addBins(tally.bins, bins);
}

function summary(name: VitalName, route: string | null, tally: Tally): VitalSummary {
  return {
    name,
    route,
    count: tally.count,
    p50: percentileOf(name, tally.bins, 0.5),
    p75: percentileOf(name, tally.bins, 0.75),
    p95: percentileOf(name, tally.bins, 0.95),
    good: tally.good,
    needsImprovement: tally.ni,
    poor: tally.poor,
  };
}

/** Every item of the hours from `fromHour` to `toHour` (inclusive, `yyyy-MM-ddTHH`): one Query per UTC day. */
async function itemsBetween(from: Date, to: Date): Promise<Record<string, unknown>[]> {
  const days: string[] = [];
  for (let t = Date.parse(`${from.toISOString().slice(0, 10)}T00:00:00Z`); t <= to.getTime(); t += 24 * HOUR_MS) days.push(new Date(t).toISOString().slice(0, 10));
  const lo = `${hourOf(from)}#`;
  const hi = `${hourOf(to)}#\uffff`;
  const pages = await Promise.all(
    days.map(async (day) => {
      const items: Record<string, unknown>[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const out = await dynamo().send(
          new QueryCommand({
            TableName: tableName('webVitals'),
            KeyConditionExpression: '#day = :day AND sk BETWEEN :lo AND :hi',
            ExpressionAttributeNames: { '#day': 'day' },
            ExpressionAttributeValues: { ':day': day, ':lo': lo, ':hi': hi },
            ExclusiveStartKey: start,
          }),
        );
        items.push(...((out.Items ?? []) as Record<string, unknown>[]));
        start = out.LastEvaluatedKey;
      } while (start);
      return items;
    }),
  );
  return pages.flat();
}

/**
 * Support's view of a period ending now (the current hour included): per metric, all routes and
 * then each route by count, most first (ties by route).
 */
export async function vitalsReport(period: WebVitalsPeriod, now: Date): Promise<WebVitalsReport> {
  const hours = webVitalsPeriods[period];
  const to = now;
  const from = new Date(Date.parse(`${hourOf(now)}:00:00Z`) - (hours - 1) * HOUR_MS);
  const items = await itemsBetween(from, to);
  const overall = new Map<VitalName, Tally>(vitalNames.map((n) => [n, emptyTally()]));
  const perRoute = new Map<string, Tally>();
  for (const item of items) {
    const name = item['metric'] as VitalName;
    const route = String(item['route']);
    const all = overall.get(name);
    if (!all) continue;
    addItem(all, item);
    const key = `${name}\n${route}`;
    let tally = perRoute.get(key);
    if (!tally) perRoute.set(key, (tally = emptyTally()));
    addItem(tally, item);
  }
  const summaries: VitalSummary[] = [];
  for (const name of vitalNames) {
    summaries.push(summary(name, null, overall.get(name) as Tally));
    const routes = [...perRoute]
      .filter(([key]) => key.startsWith(`${name}\n`))
      .map(([key, tally]) => ({ route: key.slice(name.length + 1), tally }))
      .sort((a, b) => b.tally.count - a.tally.count || a.route.localeCompare(b.route));
    for (const { route, tally } of routes) summaries.push(summary(name, route, tally));
  }
  return { period, from: from.toISOString(), to: to.toISOString(), summaries };
}
