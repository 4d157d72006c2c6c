/**
 * The cost model against figures computed by hand: a small stack (one provisioned shard with an
 * enhanced fan-out consumer, the ingest function, positions and units with the units index
 * projecting all), round prices, and a fleet whose trackers only report (no trips, events, users).
 */
import { describe, expect, it } from 'vitest';
import type { FunctionFact, Inventory, TableFact } from './assembly';
import { batchPerInvocation, byService, DAYS_PER_MONTH, defaultAssumptions, estimate, HOURS_PER_MONTH, onDemandShards, type Assumptions, type ItemSizes } from './model';
import { readPriceList, type PriceList } from './prices';
import { customMetricSeries, vitalSeriesPerMetric } from './metric-series';
import { designNotes } from './report';
import { runsPerMonth } from './schedule-runs';

const table = (name: string, fullIndexes = 0): TableFact => ({ name, billingMode: 'PAY_PER_REQUEST', indexes: fullIndexes, fullIndexes, pitr: true, tableClass: 'standard' });

const inventory: Inventory = {
  templates: ['Stack.template.json'],
  functions: [{ name: 'ingest', group: 'ingest', memoryMb: 1024, architecture: 'arm64', tracing: false, platformLogs: true, template: 'Stack.template.json' }],
  tables: [table('positions'), table('units', 1), table('unit-copies'), table('trip-rollups')],
  streams: [{ logicalId: 'Stream', mode: 'PROVISIONED', shards: 1, retentionHours: 24 }],
  streamConsumers: 1,
  parallelizationFactor: 10,
  batchingWindowSeconds: 0,
  topicRules: [{ name: 'telemetry', actions: 1 }],
  queues: 0,
  sqsMappings: 0,
  schedules: [],
  httpApis: 0,
  httpRoutes: 0,
  routeMetrics: false,
  distributions: 0,
  cloudFrontFunctions: 0,
  userPools: [],
  secrets: 0,
  kmsKeys: 0,
  snsTopics: 0,
  alarms: 2,
  dashboards: 1,
  logGroups: [{ retentionDays: 30 }],
  locationApiKeys: 0,
  buckets: 0,
  selfHostedBasemap: false,
};

/** The real list's keys and sources, with round prices. */
const real = readPriceList();
const prices: PriceList = {
  ...real,
  prices: Object.fromEntries(Object.entries(real.prices).map(([k, v]) => [k, { ...v, usd: 1 }])),
};
const priced = (overrides: Record<string, number>): PriceList => ({
  ...prices,
  prices: { ...prices.prices, ...Object.fromEntries(Object.entries(overrides).map(([k, usd]) => [k, { ...(prices.prices[k] as PriceList['prices'][string]), usd }])) },
});

const sizes: ItemSizes = {
  measured: '2026-11-30',
  tripEndsAtKnownPlace: { starts: 0.5, stops: 0.25 },
  tables: { positions: { meanBytes: 200, writeUnits: 1, strongReadUnits: 1 }, units: { meanBytes: 1500, writeUnits: 2, strongReadUnits: 1 } },
};

/** 1,000 trackers that only report: 2 h moving at 30 s, a heartbeat an hour parked, no users, trips or events. */
const quiet: Assumptions = defaultAssumptions({
  units: 1000,
  // The plain topics (the default is Basic Ingest, as provisioned): each message is charged.
  basicIngest: false,
  // Every position published live (the default: only while watched, and nobody watches here).
  liveOnlyWhileWatched: false,
  users: 1,
  apiCallsPerUserMonth: 0,
  liveMapMinutesPerUserMonth: 0,
  pageLoadsPerUserMonth: 0,
  reportExportsPerUserMonth: 0,
  loginsPerUserMonth: 0,
  tripsPerUnitDay: 0,
  eventsPerUnitDay: 0,
  passagesPerUnitDay: 0,
  alarmEmailsPerUnitMonth: 0,
  alarmSmsPerUnitMonth: 0,
  pictureKilobytesPerUnit: 0,
  customMetricSeries: 0,
});

const find = (e: ReturnType<typeof estimate>, service: string, item: RegExp) => {
  const line = e.lines.find((l) => l.service === service && item.test(l.item));
  if (!line) throw new Error(`no ${service} line ${item}`);
  return line;
};

describe('estimate', () => {
  // 240 positions moving (2 h x 120) + 22 heartbeats (22 h) a day, one message each.
  const messages = 1000 * 262 * DAYS_PER_MONTH;

  it('prices the trackers\' messages, rules, stream and DynamoDB writes as computed by hand', () => {
    const e = estimate(inventory, priced({ 'iot.messagingPerMillionFirstBillion': 1, 'dynamodb.onDemand.writeRequestUnitsPerMillion': 0.625, 'kinesis.provisioned.shardHour': 0.015 }), sizes, quiet, runsPerMonth);
    expect(e.usage.messagesPerMonth).toBeCloseTo(7_974_625, 0);
    expect(find(e, 'IoT Core', /tracker messages/).usd).toBeCloseTo(7.974625, 6);
    // Each tracker message is published live once (nobody watches: no deliveries).
    expect(find(e, 'IoT Core', /live publishes/).usd).toBeCloseTo(7.974625, 6);
    expect(e.lines.some((l) => /live deliveries/.test(l.item))).toBe(false);
    expect(find(e, 'IoT Core', /rules triggered/).quantity).toBeCloseTo(messages / 1e6, 6);
    // Only while watched (the default): nobody watches, nothing is published.
    const unwatched = estimate(inventory, priced({ 'iot.messagingPerMillionFirstBillion': 1 }), sizes, { ...quiet, liveOnlyWhileWatched: true }, runsPerMonth);
    expect(unwatched.lines.some((l) => /live publishes/.test(l.item))).toBe(false);
    expect(unwatched.usage.liveWatchedShare).toBe(0);
    // Through Basic Ingest (the default): no messaging charge for them, the rules the same.
    expect(defaultAssumptions({ units: 1 }).basicIngest).toBe(true);
    const basic = estimate(inventory, priced({ 'iot.messagingPerMillionFirstBillion': 1 }), sizes, { ...quiet, basicIngest: true }, runsPerMonth);
    expect(basic.lines.some((l) => /tracker messages/.test(l.item))).toBe(false);
    expect(find(basic, 'IoT Core', /rules triggered/).quantity).toBeCloseTo(messages / 1e6, 6);
    // A position item (1 WRU) per message: $0.625 per million.
    expect(find(e, 'DynamoDB', /^positions: writes/).usd).toBeCloseTo((messages / 1e6) * 0.625, 6);
    // A transition of a 1.5 KB units item: 2 WRU, and 2 more in the index projecting all.
    expect(find(e, 'DynamoDB', /^units: writes/).quantity).toBeCloseTo((messages * 4) / 1e6, 6);
    // One provisioned shard all month, and its consumer-shard-hours at $1.
    expect(find(e, 'Kinesis', /^shard-hours/).usd).toBeCloseTo(HOURS_PER_MONTH * 0.015, 6);
    expect(find(e, 'Kinesis', /consumer-shard-hours/).usd).toBeCloseTo(HOURS_PER_MONTH, 6);
    // Fixed per resource: 2 alarms and a dashboard at $1 each.
    expect(find(e, 'CloudWatch', /^alarms/).usd).toBe(2);
    expect(find(e, 'CloudWatch', /^dashboards/).usd).toBe(1);
    expect(e.total).toBeCloseTo(e.lines.reduce((s, l) => s + l.usd, 0), 9);
    expect(e.perUnitMonth).toBeCloseTo(e.platformTotal / 1000, 12);
  });

  it("writes and keeps a buffered message's positions as one item: the keys once, a kilobyte a write unit", () => {
    const wru = priced({ 'dynamodb.onDemand.writeRequestUnitsPerMillion': 1 });
    const buffered = estimate(inventory, wru, sizes, { ...quiet, recordsPerMessage: 10 }, runsPerMonth);
    // 24 chunks of 10 moving positions a day (45 B of keys, 10 x (155 B + a 5 B offset) = 1,645 B: 2 WRU) and 22 heartbeats alone (1 WRU).
    expect(find(buffered, 'DynamoDB', /^positions: writes/).quantity).toBeCloseTo((1000 * (24 * 2 + 22) * DAYS_PER_MONTH) / 1e6, 6);
    const single = estimate(inventory, wru, sizes, quiet, runsPerMonth);
    expect(find(single, 'DynamoDB', /^positions: writes/).quantity).toBeCloseTo(messages / 1e6, 6);
    // Kept: 24 chunks of 1,645 B and 22 positions of 200 B a day, each with its 100 B of overhead, against 262 positions of 200 B.
    const stored = (e: ReturnType<typeof estimate>) => find(e, 'DynamoDB', /^positions: storage/).quantity * 1024 ** 3;
    expect(stored(buffered)).toBeCloseTo(1000 * (24 * (1645 + 100) + 22 * 300) * quiet.retentionDays, -3);
    expect(stored(single)).toBeCloseTo(1000 * 262 * 300 * quiet.retentionDays, -3);
  });

  it('takes the ingest function\'s memory from the template and its invocations from the lanes', () => {
    const e = estimate(inventory, prices, sizes, quiet, runsPerMonth);
    // Working day: 240 x 1,000 moving messages in 10 h + 22,000 heartbeats over the day = 6.92 /s over 10 lanes.
    const workday = (240 * 1000) / 36_000 + (22 * 1000) / 86_400;
    expect(e.usage.workdayMessagesPerSecond).toBeCloseTo(workday, 9);
    expect(e.usage.ingestLanes).toBe(10);
    // 0.69 messages/s per lane never finds a second waiting: one per invocation, 35 + 1 ms.
    expect(e.usage.ingestMessagesPerInvocation).toBe(1);
    const gbs = find(e, 'Lambda', /ingest.*GB|ingest.*ms each/);
    expect(gbs.item).toMatch(/1024 MB arm64, 36 ms each/);
    expect(gbs.quantity).toBeCloseTo((messages * 0.036 * 1024) / 1024, 3);
  });

  it('on demand, prices stream-hours and data in 1 KB records instead of shards', () => {
    const onDemand = { ...inventory, streams: [{ logicalId: 'Stream', mode: 'ON_DEMAND' as const, shards: 0, retentionHours: 24 }] };
    const e = estimate(onDemand, priced({ 'kinesis.onDemand.streamHour': 0.04, 'kinesis.onDemand.dataInPerGb': 0.08 }), sizes, quiet, runsPerMonth);
    expect(e.lines.some((l) => /shard-hours/.test(l.item))).toBe(false);
    expect(find(e, 'Kinesis', /stream-hours/).usd).toBeCloseTo(HOURS_PER_MONTH * 0.04, 6);
    // A 220 B record as the rule's base64 output with its envelope is under 1 KB: billed as 1 KB.
    expect(find(e, 'Kinesis', /data in/).quantity).toBeCloseTo((messages * 1024) / 1024 ** 3, 9);
    expect(e.usage.streamShards).toBe(4);
  });

  it("prices the HTTP API's per-route metrics only when the stage publishes them", () => {
    const withRoutes = { ...inventory, httpApis: 1, httpRoutes: 150, routeMetrics: true };
    const e = estimate(withRoutes, priced({ 'cloudwatch.metricPerMonth': 0.3 }), sizes, quiet, runsPerMonth);
    // 150 routes x 6 metrics, billed for 40 % of the hours: 360 metrics at $0.30.
    expect(find(e, 'CloudWatch', /per-route metrics/).usd).toBeCloseTo(360 * 0.3, 9);
    const off = estimate({ ...withRoutes, routeMetrics: false }, prices, sizes, quiet, runsPerMonth);
    expect(off.lines.some((l) => /per-route metrics/.test(l.item))).toBe(false);
  });

  it("notes what per-route metrics would add when the stage has none, and which functions trace actively", () => {
    const withRoutes = { ...inventory, httpApis: 1, httpRoutes: 150, routeMetrics: false };
    const http: FunctionFact = { ...inventory.functions[0]!, name: 'units', group: 'http', tracing: true };
    const inputs = { inventory: { ...withRoutes, functions: [...inventory.functions, http] }, prices: priced({ 'cloudwatch.metricPerMonth': 0.3 }), sizes, runsPerMonth };
    const notes = designNotes(inputs, quiet);
    // 360 metrics at $0.30 over 1,000 units.
    expect(notes).toContainEqual(expect.stringMatching(/^Done: the HTTP API publishes no per-route metrics .* would add \$108 a month \(\$0\.1080 per unit-month\)/));
    expect(notes).toContainEqual(expect.stringMatching(/^X-Ray active tracing on 1 of 2 functions/));
    const on = designNotes({ ...inputs, inventory: { ...inputs.inventory, routeMetrics: true } }, quiet);
    expect(on).toContainEqual(expect.stringMatching(/^The HTTP API's per-route metrics cost \$108 a month/));
    expect(on.some((n) => n.startsWith('Done: the HTTP API'))).toBe(false);
  });

  it('leaves the SMS, which the accounts pay with credits, out of the cost per unit', () => {
    const e = estimate(inventory, priced({ 'sns.smsPerMessage': 0.07 }), sizes, { ...quiet, alarmSmsPerUnitMonth: 2 }, runsPerMonth);
    const sms = find(e, 'SNS', /SMS/);
    expect(sms.usd).toBeCloseTo(2000 * 0.07, 9);
    expect(sms.passThrough).toBe(true);
    expect(e.total - e.platformTotal).toBeCloseTo(140, 9);
  });

  it('splits the month rollup of an account in 64 items, each growing with its share of the units', () => {
    const trips = { ...quiet, tripsPerUnitDay: 1 };
    const at = (unitsPerAccount: number) => estimate(inventory, prices, sizes, { ...trips, units: Math.max(1000, unitsPerAccount), unitsPerAccount }, runsPerMonth);
    const small = at(100);
    const large = at(50_000);
    // ceil(100 / 64) = 2 units an item; ceil(50,000 / 64) = 782.
    expect(small.usage.monthRollupItemBytes).toBe(2 * 44 + 50);
    expect(large.usage.monthRollupItemBytes).toBe(782 * 44 + 50);
    // Per trip: the quarter item (1 WRU) and the unit's month item (138 B: 1 WRU; 34,458 B: 34 WRU).
    const perTrip = (e: typeof small, units: number) => find(e, 'DynamoDB', /^trip-rollups: writes/).quantity / ((units * DAYS_PER_MONTH) / 1e6);
    expect(perTrip(small, 1000)).toBeCloseTo(1 + 1, 9);
    expect(perTrip(large, 50_000)).toBeCloseTo(1 + 34, 9);
  });

  it("bills Lambda's own log lines only for the functions that write them", () => {
    const list = priced({ 'cloudwatch.logsIngestPerGb': 1 });
    const withApi = { ...quiet, apiCallsPerUserMonth: 1000 };
    const logs = (e: ReturnType<typeof estimate>) => find(e, 'CloudWatch', /^logs ingested/);
    const logged = estimate(inventory, list, sizes, withApi, runsPerMonth);
    const quietLambda = estimate({ ...inventory, functions: inventory.functions.map((f) => ({ ...f, platformLogs: false })) }, list, sizes, withApi, runsPerMonth);
    // The one function is ingest: 400 B of Lambda's lines for each of its invocations; the API's log lines either way.
    const invocations = find(logged, 'Lambda', /^ingest .*: requests/).quantity * 1e6;
    expect(logs(logged).quantity - logs(quietLambda).quantity).toBeCloseTo((invocations * 400) / 1024 ** 3, 6);
    expect(logs(quietLambda).quantity).toBeGreaterThan(0);
    expect(logs(quietLambda).item).toMatch(/Lambda's own lines off/);
  });

  it('prices a Standard-IA table at its own storage, read and write prices', () => {
    const ia: Inventory = { ...inventory, tables: inventory.tables.map((t) => (t.name === 'positions' ? { ...t, tableClass: 'standardIa' } : t)) };
    const list = priced({ 'dynamodb.storagePerGbMonth': 10, 'dynamodb.standardIa.storagePerGbMonth': 4, 'dynamodb.pitrPerGbMonth': 0, 'dynamodb.onDemand.writeRequestUnitsPerMillion': 8, 'dynamodb.standardIa.writeRequestUnitsPerMillion': 10 });
    const standard = estimate(inventory, list, sizes, quiet, runsPerMonth);
    const infrequent = estimate(ia, list, sizes, quiet, runsPerMonth);
    const storage = (e: ReturnType<typeof estimate>) => find(e, 'DynamoDB', /^positions: storage/);
    const writes = (e: ReturnType<typeof estimate>) => find(e, 'DynamoDB', /^positions: writes/);
    expect(storage(infrequent).quantity).toBeCloseTo(storage(standard).quantity, 9);
    expect(storage(infrequent).usd).toBeCloseTo(storage(standard).usd * 0.4, 9);
    expect(writes(infrequent).usd).toBeCloseTo(writes(standard).usd * 1.25, 9);
    expect(writes(infrequent).item).toMatch(/Standard-IA/);
  });

  it('prices an auto-scaled table by the capacity its working day and night need at the target utilisation', () => {
    const scaled = (t: TableFact): TableFact =>
      t.name === 'units'
        ? {
            ...t,
            billingMode: 'PROVISIONED',
            indexes: 2,
            provisioned: { rcu: 3, wcu: 3 },
            fullIndexNames: ['byAccount'],
            autoScaling: [
              { kind: 'write', min: 1, max: 1000, targetPercent: 50 },
              { kind: 'read', min: 1, max: 1000, targetPercent: 50 },
              { index: 'byAccount', kind: 'write', min: 1, max: 1000, targetPercent: 50 },
              { index: 'byAccountName', kind: 'write', min: 2, max: 1000, targetPercent: 50 },
            ],
          }
        : t;
    const inv: Inventory = { ...inventory, tables: inventory.tables.map(scaled) };
    const e = estimate(inv, priced({ 'dynamodb.provisioned.wcuHour': 1, 'dynamodb.provisioned.rcuHour': 0.5 }), sizes, quiet, runsPerMonth);
    // Working day: 6.92 messages/s, a 2-WRU transition each: 13.8 WRU/s at 50 %: 28 WCU, for 10 h + 1 h of lag.
    // Night: only the heartbeats, 22,000 a day spread over it: 0.25 messages/s, 0.51 WRU/s: 2 WCU.
    const day = (240 * 1000) / 36_000 + (22 * 1000) / 86_400;
    const night = ((22 * 1000) / 86_400) * 1;
    const wcu = (perSecond: number, min: number) => Math.max(min, Math.ceil(perSecond / 0.5));
    const table = DAYS_PER_MONTH * (11 * wcu(day * 2, 1) + 13 * wcu(night * 2, 1));
    // byAccount projects all: the table's writes; byAccountName: its minimum all month.
    const expected = 2 * table + 2 * 24 * DAYS_PER_MONTH;
    const writes = find(e, 'DynamoDB', /^units: writes, provisioned, auto scaling to 50 % \(table and 2 indexes\)/);
    expect(writes.quantity).toBeCloseTo(expected, 6);
    expect(writes.usd).toBeCloseTo(expected, 6);
    // One strongly consistent read a message: 1 RRU each, the table only.
    const reads = find(e, 'DynamoDB', /^units: reads, provisioned/);
    expect(reads.quantity).toBeCloseTo(DAYS_PER_MONTH * (11 * wcu(day, 1) + 13 * wcu(night, 1)), 6);
    expect(reads.usd).toBeCloseTo(reads.quantity * 0.5, 6);
    expect(e.lines.some((l) => /^units: writes \(/.test(l.item))).toBe(false);
    // The design note says what on demand would cost instead.
    const notes = designNotes({ inventory: inv, prices, sizes, runsPerMonth }, quiet);
    expect(notes).toContainEqual(expect.stringMatching(/^Done: units is provisioned with auto scaling to 50 % utilisation .* against on demand/));
    expect(notes.some((n) => n.startsWith('positions and units are written at a steady'))).toBe(false);
  });

  it('prices a self-hosted street map as CloudFront bytes and requests, leaving Amazon Location the satellite share', () => {
    const web = { ...inventory, distributions: 1, locationApiKeys: 1 };
    const viewing: Assumptions = { ...quiet, users: 100, liveMapMinutesPerUserMonth: 300, mapTilesPerMapMinute: 10, satelliteMapShare: 0.15, tripsShownShare: 0.5, basemapTileKilobytes: 40, basemapCacheMissShare: 0.2, basemapArchiveGb: 120 };
    const list = priced({ 'location.mapTilesPerThousand': 0.04, 'cloudfront.dataOutPerGb': 0.085, 'cloudfront.httpsRequestsPer10k': 0.01, 's3.getPerThousand': 0.0004, 's3.storagePerGbMonth': 0.023 });
    const amazon = estimate(web, list, sizes, viewing, runsPerMonth);
    const selfHosted = estimate({ ...web, selfHostedBasemap: true }, list, sizes, viewing, runsPerMonth);
    // 100 users x 300 minutes x 10 tiles = 300,000 tiles.
    expect(find(amazon, 'Amazon Location', /^map tiles$/).usd).toBeCloseTo(300 * 0.04, 9);
    expect(amazon.lines.some((l) => /self-hosted/.test(l.item))).toBe(false);
    expect(find(selfHosted, 'Amazon Location', /map tiles: satellite/).quantity).toBeCloseTo(45, 9);
    expect(find(selfHosted, 'CloudFront', /street map: data out/).quantity).toBeCloseTo((255_000 * 40 * 1024) / 1024 ** 3, 9);
    expect(find(selfHosted, 'CloudFront', /street map: HTTPS requests/).usd).toBeCloseTo(25.5 * 0.01, 9);
    expect(find(selfHosted, 'S3', /^GET requests/).quantity).toBeCloseTo(51, 9);
    expect(find(selfHosted, 'S3', /^storage/).quantity).toBeCloseTo(120, 6);
    expect(selfHosted.platformTotal).toBeLessThan(amazon.platformTotal);
    const notes = designNotes({ inventory: { ...web, selfHostedBasemap: true }, prices: list, sizes, runsPerMonth }, viewing);
    expect(notes).toContainEqual(expect.stringMatching(/^Done: the street map is self-hosted .* saves \$/));
  });

  it('geocodes only the trip ends that are not where the unit parked before, of the trips shown', () => {
    const e = estimate(inventory, priced({ 'location.reverseGeocodePerThousand': 0.5 }), sizes, { ...quiet, tripsPerUnitDay: 2, tripsShownShare: 1 }, runsPerMonth);
    // 2 trips a day: half of their starts and three quarters of their stops.
    expect(find(e, 'Amazon Location', /reverse geocoding/).quantity).toBeCloseTo((1000 * 2 * DAYS_PER_MONTH * 1.25) / 1000, 9);
    const shown = estimate(inventory, priced({ 'location.reverseGeocodePerThousand': 0.5 }), sizes, { ...quiet, tripsPerUnitDay: 2, tripsShownShare: 0.4 }, runsPerMonth);
    expect(find(shown, 'Amazon Location', /reverse geocoding/).quantity).toBeCloseTo((0.4 * 1000 * 2 * DAYS_PER_MONTH * 1.25) / 1000, 9);
  });
});

describe('batchPerInvocation and onDemandShards', () => {
  it('batches what arrives while a lane works, between 1 and 500', () => {
    expect(batchPerInvocation(1, 35, 1)).toBe(1);
    // 100 messages/s: 3.5 arrive during the fixed 35 ms, and 0.1 per ms of the batch's own work: 3.5 / 0.9.
    expect(batchPerInvocation(100, 35, 1)).toBeCloseTo(3.5 / 0.9, 9);
    expect(batchPerInvocation(2000, 35, 1)).toBe(500);
  });

  it('holds a batching window\'s arrivals after the first record, when that is more than the work brings', () => {
    // 8 messages/s and a 1 s window: the first and the 8 that follow it.
    expect(batchPerInvocation(8, 35, 1, 1000)).toBeCloseTo(9, 9);
    // A window shorter than the work changes nothing.
    expect(batchPerInvocation(100, 35, 1, 10)).toBeCloseTo(3.5 / 0.9, 9);
    expect(batchPerInvocation(600, 35, 1, 1000)).toBe(500);
  });

  it('prices ingest by the template\'s batching window: fewer, longer invocations', () => {
    const fleet = defaultAssumptions({ units: 10_000 });
    const without = estimate(inventory, prices, sizes, fleet, runsPerMonth);
    const withWindow = estimate({ ...inventory, batchingWindowSeconds: 1, parallelizationFactor: 2 }, prices, sizes, fleet, runsPerMonth);
    const ingest = (e: typeof without) => e.lines.filter((l) => l.service === 'Lambda' && l.item.startsWith('ingest')).reduce((sum, l) => sum + l.usd, 0);
    expect(withWindow.usage.ingestMessagesPerInvocation).toBeGreaterThan(5 * without.usage.ingestMessagesPerInvocation);
    expect(ingest(withWindow)).toBeLessThan(ingest(without) / 3);
  });

  it('scales on-demand shards to twice the peak, 4 at least', () => {
    expect(onDemandShards(100, 100_000)).toBe(4);
    expect(onDemandShards(3_334, 1e6)).toBe(7);
    expect(onDemandShards(1000, 5e6)).toBe(10);
  });
});

describe('byService', () => {
  it('sums the lines per service, largest first', () => {
    const e = estimate(inventory, prices, sizes, quiet, runsPerMonth);
    const services = byService(e);
    expect(services.reduce((s, x) => s + x.usd, 0)).toBeCloseTo(e.total, 9);
    expect(services.map((s) => s.usd)).toEqual([...services.map((s) => s.usd)].sort((x, y) => y - x));
  });
});

describe('customMetricSeries', () => {
  it('counts the series the code publishes: the ops counts, and each vital once per dimension set (per route pattern with Route)', () => {
    // As the code publishes them now: the 4 vitals over all routes and the 2 counts the alarms read.
    expect(customMetricSeries()).toBe(6);
    expect(customMetricSeries([['Route'], []], 37)).toBe(2 + 4 * 38);
    expect(vitalSeriesPerMetric([['Route']], 10)).toBe(10);
    expect(() => vitalSeriesPerMetric([['Route', 'Device']])).toThrow(/Device/);
  });

  it('is what the default assumptions price', () => {
    expect(defaultAssumptions({ units: 10 }).customMetricSeries).toBe(customMetricSeries());
  });
});

describe('live publishes only while watched', () => {
  it('prices the watched share: moving positions by 1 - e^-λ\', heartbeats by that share of the working day', () => {
    const a = defaultAssumptions({ units: 10_000 });
    expect(a.liveOnlyWhileWatched).toBe(true);
    const prices = priced({ 'iot.messagingPerMillionFirstBillion': 1 });
    const watched = estimate(inventory, prices, sizes, a, runsPerMonth);
    const always = estimate(inventory, prices, sizes, { ...a, liveOnlyWhileWatched: false }, runsPerMonth);
    const viewers = watched.usage.liveViewersPerAccount;
    // Sessions of 30 min (2 connects an hour), each lengthened by the mark's 3.5 min tail (360 s - 150 s).
    const share = 1 - Math.exp(-viewers * (1 + 3.5 / 30));
    expect(watched.usage.liveWatchedShare).toBeCloseTo(share, 9);
    const moving = (10_000 * 240 * DAYS_PER_MONTH);
    const heartbeats = 10_000 * 22 * DAYS_PER_MONTH;
    expect(watched.usage.livePublishesPerMonth).toBeCloseTo(moving * share + heartbeats * share * (10 / 24), 0);
    expect(always.usage.livePublishesPerMonth).toBeCloseTo(moving + heartbeats, 0);
    expect(find(watched, 'IoT Core', /live publishes by ingest \(only while watched/).usd).toBeLessThan(find(always, 'IoT Core', /live publishes by ingest$/).usd * 0.5);
  });
});
