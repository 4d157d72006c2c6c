/**
 * The cost and capacity model of a deployment (`npm run cost`, docs/capacity.md). Pure: the
 * stack's facts (assembly.ts, read from the synthesized templates), the price list (prices.ts),
 * the measured item sizes (item-sizes.json) and the usage assumptions go in; the monthly cost per
 * service and item, and the throughput the load needs, come out. Every usage figure is an
 * assumption below, printed with the estimate; what one position costs in DynamoDB follows the
 * ingest code (docs/decisions/0003-ingest-path.md, "Requests per message"):
 *
 * - per tracker message: one position item per record (BatchWriteItem), one strongly consistent
 *   read of the `units` and `unit-copies` items (BatchGetItem; a missing item costs a read unit
 *   too), one conditional transition of the `units` item (BatchExecuteStatement or UpdateItem);
 *   one message per unit and batch at these intervals, so no two share a transition;
 * - per event or congestion passage: its item, and the effect's claim and removal, two more
 *   updates of the `units` item; per alarm message its delivery claim and its sent mark;
 * - per trip: its item put and its addresses written (an end where the unit parked before takes
 *   that address: one Query instead of a geocoder call), the day rollup (a unit-days item) and the
 *   fleet overview's trip rollups (the quarter hour's item and the month's, which holds an entry
 *   per unit of the account), after strongly consistent queries of the unit's trips;
 * - a write of an item whose table has a global secondary index projecting all attributes is
 *   written there too (the template says which).
 */
import type { Inventory, FunctionGroup, TableFact } from './assembly';
import { customMetricSeries } from './metric-series';
import { includedOf, priceOf, type PriceList } from './prices';
import { LIVE_WATCH_MS } from '../../functions/domain/account/live-watch';
import { REFRESH_SECONDS } from '../../functions/live/authorize';
import { MONTH_SHARDS } from '../../functions/trips/trip-rollup-reads';

export const DAYS_PER_MONTH = 365.25 / 12;
export const HOURS_PER_MONTH = DAYS_PER_MONTH * 24;
export const SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600;
/** The bytes of a positions item besides the packed fields: `imei`, `ts`, `expiresAt` and the name of `p` or `c`, with their values. */
const POSITION_KEY_BYTES = 45;
/** A position's time offset in a chunk: a MessagePack integer, five bytes from 65.5 s on (three below). */
const CHUNK_OFFSET_BYTES = 5;
const GB = 1024 ** 3;
const M = 1e6;

/** What one item of each table weighs (scripts/cost/item-sizes.json). */
export interface ItemSizes {
  readonly measured: string;
  /**
   * Shares of trip starts and stops at a place where their unit parked before (its previous stop,
   * an end of one of its latest trips), which take that address instead of a geocoder call
   * (functions/trips/trip-addresses.ts).
   */
  readonly tripEndsAtKnownPlace: { readonly starts: number; readonly stops: number };
  readonly tables: Readonly<Record<string, { readonly meanBytes: number; readonly maxBytes?: number; readonly writeUnits: number; readonly strongReadUnits: number }>>;
}

/** The usage the estimate assumes; every figure is printed with it. */
export interface Assumptions {
  readonly units: number;
  readonly users: number;
  /** Seconds between positions while moving. */
  readonly intervalSeconds: number;
  readonly movingHoursPerDay: number;
  /** Movement and map viewing both fall in a working day of this many hours (peak rate = the day's positions over it). */
  readonly workingDayHours: number;
  /** A parked tracker's heartbeat, minutes apart. */
  readonly parkedHeartbeatMinutes: number;
  /** Positions per MQTT message (1: each position sent on its own; real trackers may buffer). */
  readonly recordsPerMessage: number;
  /** One record's MQTT payload plus topic, bytes. */
  readonly recordBytes: number;
  readonly trackerConnectedHoursPerDay: number;
  /**
   * Trackers publish through Basic Ingest ($aws/rules/...), which has no messaging charge: what
   * `npm run provision` configures them with (docs/decisions/0003). False prices the plain topics.
   */
  readonly basicIngest: boolean;
  /** Units an account has: a live viewer receives every unit of the account. */
  readonly unitsPerAccount: number;
  /** Extra live topics per unit (ordinary users granted the unit, each with a topic of their own). */
  readonly userTopicsPerUnit: number;
  readonly apiCallsPerUserMonth: number;
  readonly liveMapMinutesPerUserMonth: number;
  /** Live channel connects per hour of map (the first, and again at each token refresh). */
  readonly liveConnectsPerHour: number;
  /**
   * Ingest publishes live only while a browser watches the account (docs/decisions/0051): the
   * watched share of the time. False prices a publish for every position.
   */
  readonly liveOnlyWhileWatched: boolean;
  readonly pageLoadsPerUserMonth: number;
  readonly requestsPerPageLoad: number;
  readonly kilobytesPerPageLoad: number;
  readonly kilobytesPerApiCall: number;
  readonly mapTilesPerMapMinute: number;
  /** Share of the map minutes on satellite imagery, which stays with Amazon Location when the street map is self-hosted. */
  readonly satelliteMapShare: number;
  /**
   * Share of the trips ever shown in the trip log or reported: their addresses are looked up then
   * (functions/trips/trip-addresses.ts). A körjournal's car has every trip attested; a trailer's,
   * a machine's or a tag's trips are rarely opened.
   */
  readonly tripsShownShare: number;
  /** A self-hosted street map tile (Protomaps vector tile, compressed), and the share of tile reads CloudFront passes to S3. */
  readonly basemapTileKilobytes: number;
  readonly basemapCacheMissShare: number;
  /** The self-hosted archive's size in S3 (the planet, about 120 GB; a regional extract is a few GB). */
  readonly basemapArchiveGb: number;
  readonly reportExportsPerUserMonth: number;
  readonly loginsPerUserMonth: number;
  /** Share of users active in a month (Cognito MAUs). */
  readonly activeUserShare: number;
  readonly tripsPerUnitDay: number;
  readonly eventsPerUnitDay: number;
  readonly passagesPerUnitDay: number;
  readonly alarmEmailsPerUnitMonth: number;
  readonly alarmSmsPerUnitMonth: number;
  /** Days positions, trips and events are kept (the accounts' default retention, functions/ingest/repository.ts). */
  readonly retentionDays: number;
  /** DynamoDB's per-item storage overhead, bytes. */
  readonly itemOverheadBytes: number;
  /** Read units an API call takes (session, user, account and what the route reads). */
  readonly readUnitsPerApiCall: number;
  readonly writeUnitsPerApiCall: number;
  readonly readUnitsPerJobRun: number;
  /** Ingest invocation: fixed part (DynamoDB round trips) and per message, ms. */
  readonly ingestBaseMs: number;
  readonly ingestPerMessageMs: number;
  readonly apiCallMs: number;
  readonly liveAuthorizerMs: number;
  readonly jobRunMs: number;
  /** Per queue consumer: ms per message. */
  readonly queueMessageMs: Readonly<Record<string, number>>;
  /** CloudWatch Logs bytes per invocation (Lambda's START/END/REPORT lines), per API call (our request line) and per API access log line. */
  readonly platformLogBytesPerInvocation: number;
  readonly appLogBytesPerApiCall: number;
  readonly accessLogBytesPerApiCall: number;
  /** Archived logs take this share of the ingested bytes. */
  readonly logCompression: number;
  /** Custom metric series (EMF): the web vitals and the ops counts, counted from the code (metric-series.ts). */
  readonly customMetricSeries: number;
  /** Share of the hours in which an API route is called: its per-route metrics are billed for those hours only. */
  readonly routeMetricHoursShare: number;
  /** Lambda's pollers of one SQS event source mapping, each long polling 20 s. */
  readonly sqsPollersPerMapping: number;
  readonly pictureKilobytesPerUnit: number;
  readonly exportKilobytes: number;
  /**
   * Hours auto scaling keeps a provisioned table at the working day's capacity after its load has
   * fallen (DynamoDB scales in after 15 minutes under the target, and only so many times a day).
   */
  readonly autoScalingLagHours: number;
}

/** The defaults for a deployment of `units` trackers and `users` portal users. */
export function defaultAssumptions(overrides: Partial<Assumptions> & { units: number }): Assumptions {
  return {
    users: Math.max(1, Math.round(overrides.units / 10)),
    intervalSeconds: 30,
    movingHoursPerDay: 2,
    workingDayHours: 10,
    parkedHeartbeatMinutes: 60,
    recordsPerMessage: 1,
    recordBytes: 220,
    trackerConnectedHoursPerDay: 24,
    basicIngest: true,
    unitsPerAccount: 200,
    userTopicsPerUnit: 0,
    apiCallsPerUserMonth: 1500,
    liveMapMinutesPerUserMonth: 300,
    liveConnectsPerHour: 2,
    liveOnlyWhileWatched: true,
    pageLoadsPerUserMonth: 30,
    requestsPerPageLoad: 12,
    kilobytesPerPageLoad: 400,
    kilobytesPerApiCall: 4,
    mapTilesPerMapMinute: 10,
    satelliteMapShare: 0.15,
    tripsShownShare: 0.5,
    basemapTileKilobytes: 40,
    basemapCacheMissShare: 0.2,
    basemapArchiveGb: 120,
    reportExportsPerUserMonth: 2,
    loginsPerUserMonth: 8,
    activeUserShare: 0.8,
    tripsPerUnitDay: 3,
    eventsPerUnitDay: 1.3,
    passagesPerUnitDay: 0.5,
    alarmEmailsPerUnitMonth: 3,
    alarmSmsPerUnitMonth: 0.5,
    retentionDays: 395,
    itemOverheadBytes: 100,
    readUnitsPerApiCall: 4,
    writeUnitsPerApiCall: 0.2,
    readUnitsPerJobRun: 2,
    ingestBaseMs: 35,
    ingestPerMessageMs: 1,
    apiCallMs: 60,
    liveAuthorizerMs: 30,
    jobRunMs: 300,
    queueMessageMs: { 'alert-delivery': 200, 'trip-addresses': 250, 'trip-redetect': 500, 'unit-day-rollup': 120, 'report-export': 20_000 },
    platformLogBytesPerInvocation: 400,
    appLogBytesPerApiCall: 700,
    accessLogBytesPerApiCall: 400,
    logCompression: 0.15,
    customMetricSeries: customMetricSeries(),
    routeMetricHoursShare: 0.4,
    sqsPollersPerMapping: 5,
    pictureKilobytesPerUnit: 300,
    exportKilobytes: 500,
    autoScalingLagHours: 1,
    ...overrides,
  };
}

export interface CostLine {
  readonly service: string;
  readonly item: string;
  readonly quantity: number;
  readonly unit: string;
  readonly usd: number;
  /** Resold per use (SMS: the accounts' SMS credits, docs/decisions/0031): not part of the platform's cost per unit. */
  readonly passThrough?: boolean;
}

/** The load, per month and per second, that the costs follow from. */
export interface Usage {
  readonly positionsPerMonth: number;
  readonly messagesPerMonth: number;
  /** Messages a second: on average, through the working day, and with every tracker moving at once. */
  readonly averageMessagesPerSecond: number;
  readonly workdayMessagesPerSecond: number;
  readonly allMovingMessagesPerSecond: number;
  readonly streamRecordBytes: number;
  /** Ingest stream: shards (provisioned as the template says; on demand as Kinesis would scale for the working day). */
  readonly streamShards: number;
  readonly streamMode: 'ON_DEMAND' | 'PROVISIONED' | 'none';
  readonly ingestLanes: number;
  readonly ingestMessagesPerInvocation: number;
  readonly ingestInvocationMs: number;
  readonly ingestConcurrency: number;
  readonly livePublishesPerMonth: number;
  readonly liveDeliveriesPerMonth: number;
  readonly liveViewersPerAccount: number;
  /** Share of the working day an account is watched (live publishes go out), 1 when ingest publishes always. */
  readonly liveWatchedShare: number;
  readonly browserConnectionsAtPeak: number;
  readonly tripsPerMonth: number;
  readonly apiCallsPerMonth: number;
  /** Write and read units per second of the working day, per table. */
  readonly workdayUnitsPerSecond: Readonly<Record<string, { wru: number; rru: number }>>;
  /** Bytes of one of the fleet overview's month rollup items of an account, which hold a 64th of its units each (DynamoDB refuses items over 400 KB). */
  readonly monthRollupItemBytes: number;
}

export interface Estimate {
  readonly assumptions: Assumptions;
  readonly lines: readonly CostLine[];
  /** Every line. */
  readonly total: number;
  /** Without the pass-through lines: what the platform costs. */
  readonly platformTotal: number;
  /** platformTotal per unit and month: what the target measures. */
  readonly perUnitMonth: number;
  readonly usage: Usage;
}

/** Bytes per unit in a month item of the trip rollups: `u<15-digit IMEI>` and [trips, first day, last day] (functions/trips/trip-rollups.ts). */
export const MONTH_ROLLUP_BYTES_PER_UNIT = 16 + 3 + 3 + 11 + 11;
export const DYNAMODB_ITEM_LIMIT_BYTES = 400 * 1024;
/** Metrics API Gateway publishes per route of an HTTP API with detailed metrics. */
export const API_ROUTE_METRICS = 6;

/** Runs of an EventBridge Scheduler expression per month, given a counter for cron(...). */
export type RunsPerMonth = (expression: string) => number;

/** Messages of up to 5 KB metered per message of `bytes`. */
const iotMessages = (bytes: number) => Math.max(1, Math.ceil(bytes / 5120));

/** IoT Core messaging's tiers: 1st billion, next 4 billion, beyond. */
function messagingUsd(prices: PriceList, messages: number): number {
  const first = Math.min(messages, 1e9);
  const next = Math.min(Math.max(0, messages - 1e9), 4e9);
  const rest = Math.max(0, messages - 5e9);
  return (
    (first * priceOf(prices, 'iot.messagingPerMillionFirstBillion') + next * priceOf(prices, 'iot.messagingPerMillionNextFourBillion') + rest * priceOf(prices, 'iot.messagingPerMillionOverFiveBillion')) / M
  );
}

/**
 * Messages per invocation of a lane that receives `rate` messages a second and takes
 * base + per x batch ms for a batch: a lane takes what arrived while it worked (EFO pushes), so
 * batch = rate x duration; with a batching window, a batch also waits that long after its first
 * record, so it holds at least 1 + rate x window. At least 1, at most the mapping's 500.
 */
export function batchPerInvocation(rate: number, baseMs: number, perMs: number, windowMs = 0): number {
  const r = rate / 1000;
  if (r * perMs >= 1) return 500;
  return Math.min(500, Math.max(1, (r * baseMs) / (1 - r * perMs), 1 + r * windowMs));
}

/** On-demand Kinesis: 4 shards' worth at first, then twice the peak it saw (1,000 records/s and 1 MB/s a shard). */
export function onDemandShards(peakRecordsPerSecond: number, peakBytesPerSecond: number): number {
  return Math.max(4, Math.ceil((2 * peakRecordsPerSecond) / 1000), Math.ceil((2 * peakBytesPerSecond) / 1e6));
}

export function estimate(inventory: Inventory, prices: PriceList, sizes: ItemSizes, a: Assumptions, runsPerMonth: RunsPerMonth): Estimate {
  const lines: CostLine[] = [];
  /** A line; one of nothing is left out unless `always` (what the stack has, at no charge yet). */
  const line = (service: string, item: string, quantity: number, unit: string, usd: number, passThrough = false, always = false) => {
    if (quantity > 0 || usd > 0 || always) lines.push({ service, item, quantity, unit, usd, ...(passThrough ? { passThrough } : {}) });
  };
  const p = (key: string) => priceOf(prices, key);
  const U = a.units;
  const accounts = Math.max(1, U / a.unitsPerAccount);

  // Trackers.
  const movingPositionsPerDay = (a.movingHoursPerDay * 3600) / a.intervalSeconds;
  const heartbeatsPerDay = ((24 - a.movingHoursPerDay) * 60) / a.parkedHeartbeatMinutes;
  const messagesPerUnitDay = movingPositionsPerDay / a.recordsPerMessage + heartbeatsPerDay;
  const positionsPerUnitDay = movingPositionsPerDay + heartbeatsPerDay;
  const messagesPerMonth = U * messagesPerUnitDay * DAYS_PER_MONTH;
  const positionsPerMonth = U * positionsPerUnitDay * DAYS_PER_MONTH;
  const averageMessagesPerSecond = (U * messagesPerUnitDay) / 86_400;
  const workdayMessagesPerSecond = (U * movingPositionsPerDay) / a.recordsPerMessage / (a.workingDayHours * 3600) + (U * heartbeatsPerDay) / 86_400;
  const allMovingMessagesPerSecond = U / a.intervalSeconds / a.recordsPerMessage;
  const messageBytes = a.recordBytes * a.recordsPerMessage;

  // IoT Core.
  const users = a.users;
  const liveMinutes = users * a.liveMapMinutesPerUserMonth;
  const trackerMinutes = U * a.trackerConnectedHoursPerDay * 60 * DAYS_PER_MONTH;
  line('IoT Core', 'connectivity: trackers and live map browsers', (trackerMinutes + liveMinutes) / M, 'M connection-minutes', ((trackerMinutes + liveMinutes) / M) * p('iot.connectivityPerMillionMinutes'));
  const inbound = a.basicIngest ? 0 : messagesPerMonth * iotMessages(messageBytes);
  const usersPerAccount = (users / U) * a.unitsPerAccount;
  const liveViewersPerAccount = (usersPerAccount * a.liveMapMinutesPerUserMonth) / (a.workingDayHours * 60 * DAYS_PER_MONTH);
  // Live publishes only while the account is watched (docs/decisions/0051): its viewers arrive
  // independently in the working day (Poisson, mean liveViewersPerAccount), each map session
  // lengthened by the mark's mean tail after the browser goes (the mark's life less half a
  // refresh period), so the account is watched with probability 1 - e^-λ'. Moving positions fall
  // in the working day; parked heartbeats round the clock, watched only in the working day's part.
  const sessionMinutes = 60 / Math.max(a.liveConnectsPerHour, 1e-9);
  const markTailMinutes = (LIVE_WATCH_MS / 1000 - REFRESH_SECONDS / 2) / 60;
  const liveWatchedShare = 1 - Math.exp(-liveViewersPerAccount * (1 + markTailMinutes / sessionMinutes));
  const movingMessagesPerMonth = (U * movingPositionsPerDay * DAYS_PER_MONTH) / a.recordsPerMessage;
  const heartbeatMessagesPerMonth = U * heartbeatsPerDay * DAYS_PER_MONTH;
  const watchedMessages = a.liveOnlyWhileWatched
    ? movingMessagesPerMonth * liveWatchedShare + heartbeatMessagesPerMonth * liveWatchedShare * (a.workingDayHours / 24)
    : messagesPerMonth;
  const livePublishes = watchedMessages * (1 + a.userTopicsPerUnit);
  const liveDeliveries = messagesPerMonth * liveViewersPerAccount;
  const messaging = inbound + livePublishes + liveDeliveries;
  const messagingCost = messagingUsd(prices, messaging);
  const share = (n: number) => (messaging ? (messagingCost * n) / messaging : 0);
  line('IoT Core', `messaging: tracker messages${a.basicIngest ? ' (Basic Ingest: none)' : ''}`, inbound / M, 'M messages', share(inbound));
  line(
    'IoT Core',
    a.liveOnlyWhileWatched
      ? `messaging: live publishes by ingest (only while watched: ${Math.round(liveWatchedShare * 100)} % of the working day)`
      : 'messaging: live publishes by ingest',
    livePublishes / M,
    'M messages',
    share(livePublishes),
  );
  line('IoT Core', `messaging: live deliveries (${liveViewersPerAccount.toFixed(2)} viewers per account in the working day)`, liveDeliveries / M, 'M messages', share(liveDeliveries));
  const ruleMessages = messagesPerMonth;
  const actionsPerRule = inventory.topicRules.length ? Math.max(...inventory.topicRules.map((r) => r.actions)) : 0;
  if (inventory.topicRules.length) {
    line('IoT Core', 'rules triggered', ruleMessages / M, 'M', (ruleMessages / M) * p('iot.rulesTriggeredPerMillion'));
    line('IoT Core', 'rule actions applied', (ruleMessages * actionsPerRule) / M, 'M', ((ruleMessages * actionsPerRule) / M) * p('iot.actionsAppliedPerMillion'));
  }

  // Kinesis.
  const stream = inventory.streams[0];
  const streamRecordBytes = Math.ceil((messageBytes * 4) / 3) + 150;
  const workdayBytesPerSecond = workdayMessagesPerSecond * streamRecordBytes;
  let streamShards = 0;
  if (stream) {
    const consumers = inventory.streamConsumers;
    if (stream.mode === 'PROVISIONED') {
      streamShards = stream.shards;
      line('Kinesis', `shard-hours (${stream.shards} provisioned)`, stream.shards * HOURS_PER_MONTH, 'shard-hours', stream.shards * HOURS_PER_MONTH * p('kinesis.provisioned.shardHour'));
      const putUnits = messagesPerMonth * Math.ceil(streamRecordBytes / 25_600);
      line('Kinesis', 'PUT payload units', putUnits / M, 'M', (putUnits / M) * p('kinesis.provisioned.putPayloadUnitsPerMillion'));
      line('Kinesis', `enhanced fan-out consumer-shard-hours (${consumers})`, consumers * stream.shards * HOURS_PER_MONTH, 'hours', consumers * stream.shards * HOURS_PER_MONTH * p('kinesis.provisioned.efoConsumerShardHour'));
      const efoGb = (consumers * messagesPerMonth * streamRecordBytes) / GB;
      line('Kinesis', 'enhanced fan-out data', efoGb, 'GB', efoGb * p('kinesis.provisioned.efoDataPerGb'));
    } else {
      streamShards = onDemandShards(workdayMessagesPerSecond, workdayBytesPerSecond);
      line('Kinesis', 'on-demand stream-hours', HOURS_PER_MONTH, 'hours', HOURS_PER_MONTH * p('kinesis.onDemand.streamHour'));
      const inGb = (messagesPerMonth * Math.ceil(streamRecordBytes / 1024) * 1024) / GB;
      line('Kinesis', 'on-demand data in (records rounded up to 1 KB)', inGb, 'GB', inGb * p('kinesis.onDemand.dataInPerGb'));
      line('Kinesis', `on-demand enhanced fan-out data (${consumers} consumer)`, inGb * consumers, 'GB', inGb * consumers * p('kinesis.onDemand.efoDataPerGb'));
    }
  }

  // Lambda: per group, requests and GB-seconds.
  const fnsOf = (g: FunctionGroup) => inventory.functions.filter((f) => f.group === g);
  const invocations = new Map<string, number>();
  const lambda = (label: string, fns: readonly { name: string; memoryMb: number; architecture: string }[], requests: number, ms: number) => {
    if (!fns.length || requests <= 0) return;
    const memory = fns.reduce((s, f) => s + f.memoryMb, 0) / fns.length;
    const arm = fns.filter((f) => f.architecture === 'arm64').length / fns.length;
    const gbs = (requests * ms * memory) / 1000 / 1024;
    const gbsPrice = arm * p('lambda.arm64GbSecond') + (1 - arm) * p('lambda.x86GbSecond');
    const arch = arm === 1 ? 'arm64' : arm === 0 ? 'x86_64' : 'mixed';
    line('Lambda', `${label}: requests`, requests / M, 'M', (requests / M) * p('lambda.requestsPerMillion'));
    line('Lambda', `${label}: ${Math.round(memory)} MB ${arch}, ${ms} ms each`, gbs, 'GB-s', gbs * gbsPrice);
    for (const f of fns) invocations.set(f.name, (invocations.get(f.name) ?? 0) + requests / fns.length);
  };

  const lanes = Math.max(1, streamShards * inventory.parallelizationFactor);
  const movingRatePerLane = workdayMessagesPerSecond / lanes;
  const nightRatePerLane = (U * heartbeatsPerDay) / 86_400 / lanes;
  const windowMs = inventory.batchingWindowSeconds * 1000;
  const dayBatch = batchPerInvocation(movingRatePerLane, a.ingestBaseMs, a.ingestPerMessageMs, windowMs);
  const nightBatch = batchPerInvocation(nightRatePerLane, a.ingestBaseMs, a.ingestPerMessageMs, windowMs);
  const movingMessages = U * (movingPositionsPerDay / a.recordsPerMessage) * DAYS_PER_MONTH;
  const heartbeatMessages = messagesPerMonth - movingMessages;
  const ingestInvocations = movingMessages / dayBatch + heartbeatMessages / nightBatch;
  const ingestMs = a.ingestBaseMs + a.ingestPerMessageMs * dayBatch;
  const ingestConcurrency = Math.min(lanes, (workdayMessagesPerSecond / dayBatch) * (ingestMs / 1000));
  lambda(`ingest (${dayBatch.toFixed(1)} messages per invocation in the working day)`, fnsOf('ingest'), ingestInvocations, Math.round(ingestMs));

  const apiCalls = users * a.apiCallsPerUserMonth;
  lambda(`HTTP API (${fnsOf('http').length} functions)`, fnsOf('http'), apiCalls, a.apiCallMs);
  const connects = (liveMinutes / 60) * a.liveConnectsPerHour;
  lambda('live authorizer', fnsOf('live-authorizer'), connects, a.liveAuthorizerMs);
  const jobRuns = inventory.schedules.reduce((s, e) => s + runsPerMonth(e), 0);
  lambda(`jobs (${inventory.schedules.length} schedules)`, fnsOf('jobs'), jobRuns, a.jobRunMs);

  const trips = U * a.tripsPerUnitDay * DAYS_PER_MONTH;
  const events = U * a.eventsPerUnitDay * DAYS_PER_MONTH;
  const passages = U * a.passagesPerUnitDay * DAYS_PER_MONTH;
  const alarmEmails = U * a.alarmEmailsPerUnitMonth;
  const alarmSms = U * a.alarmSmsPerUnitMonth;
  const exports = users * a.reportExportsPerUserMonth;
  const queueMessages: Record<string, number> = {
    'alert-delivery': alarmEmails + alarmSms,
    // At most every shown trip: what a list's or a report's time budget leaves.
    'trip-addresses': trips * a.tripsShownShare,
    // Late buffers: a few per cent of trips.
    'trip-redetect': trips * 0.02,
    'unit-day-rollup': trips,
    'report-export': exports,
  };
  let queueTotal = 0;
  for (const f of fnsOf('queue')) {
    const n = queueMessages[f.name] ?? 0;
    queueTotal += n;
    lambda(`queue ${f.name}`, [f], n, a.queueMessageMs[f.name] ?? 200);
  }

  // SQS: send, receive and delete per message, and the mappings' pollers' empty long polls.
  const sqsMessages = queueTotal * 3;
  const polls = inventory.sqsMappings * a.sqsPollersPerMapping * (SECONDS_PER_MONTH / 20);
  line('SQS', 'work queue messages (send, receive, delete)', sqsMessages / M, 'M requests', (sqsMessages / M) * p('sqs.standardRequestsPerMillion'));
  line('SQS', `empty long polls of ${inventory.sqsMappings} event source mappings`, polls / M, 'M requests', (polls / M) * p('sqs.standardRequestsPerMillion'));

  // DynamoDB, per table.
  const tableFacts = new Map(inventory.tables.map((t) => [t.name, t]));
  const ddb = new Map<string, { wru: number; rru: number; bytes: number; workdayWru: number; workdayRru: number }>();
  const entry = (t: string) => {
    let e = ddb.get(t);
    if (!e) ddb.set(t, (e = { wru: 0, rru: 0, bytes: 0, workdayWru: 0, workdayRru: 0 }));
    return e;
  };
  const wu = (t: string) => sizes.tables[t]?.writeUnits ?? 1;
  const ru = (t: string) => sizes.tables[t]?.strongReadUnits ?? 1;
  const copies = (t: string) => 1 + (tableFacts.get(t)?.fullIndexes ?? 0);
  /** `n` writes of an item of table t a month, `perSecond` of them a second in the working day. */
  const write = (t: string, n: number, perSecond = 0) => {
    const e = entry(t);
    e.wru += n * wu(t) * copies(t);
    e.workdayWru += perSecond * wu(t) * copies(t);
  };
  const read = (t: string, units: number, perSecond = 0) => {
    const e = entry(t);
    e.rru += units;
    e.workdayRru += perSecond;
  };
  const store = (t: string, items: number, bytesEach?: number) => {
    entry(t).bytes += items * ((bytesEach ?? sizes.tables[t]?.meanBytes ?? 200) + a.itemOverheadBytes) * copies(t);
  };
  const day = workdayMessagesPerSecond;
  // A message's positions are one item, a chunk (functions/ingest/position-codec.ts): the keys and
  // TTL once, each position's packed fields and its time offset, written by the kilobyte. A
  // heartbeat, and every message of one record, is an item of one position.
  const positionBytes = sizes.tables['positions']?.meanBytes ?? 150;
  const chunkBytes = a.recordsPerMessage === 1 ? positionBytes : POSITION_KEY_BYTES + a.recordsPerMessage * (positionBytes - POSITION_KEY_BYTES + CHUNK_OFFSET_BYTES);
  const chunkWriteUnits = a.recordsPerMessage === 1 ? wu('positions') : Math.ceil(chunkBytes / 1024);
  const movingShare = movingMessagesPerMonth / Math.max(messagesPerMonth, 1e-9);
  const positionItemWrites = movingMessagesPerMonth * chunkWriteUnits + heartbeatMessagesPerMonth * wu('positions');
  entry('positions').wru += positionItemWrites * copies('positions');
  entry('positions').workdayWru += day * (movingShare * chunkWriteUnits + (1 - movingShare) * wu('positions')) * copies('positions');
  read('units', messagesPerMonth * ru('units'), day * ru('units'));
  read('unit-copies', messagesPerMonth * ru('unit-copies'), day * ru('unit-copies'));
  write('units', messagesPerMonth, day);
  // The accounts' retention and live watch mark, one eventually consistent read per ingest
  // instance, cached a minute while watched and 5 s while not (docs/decisions/0051).
  const accountReadsPerHour = a.liveOnlyWhileWatched ? (liveWatchedShare * a.workingDayHours * 60 + (24 - liveWatchedShare * a.workingDayHours) * 720) / 24 : 60;
  read('accounts', Math.min(messagesPerMonth, lanes * accounts * HOURS_PER_MONTH * accountReadsPerHour) * 0.5);
  const workdayShare = (n: number) => n / DAYS_PER_MONTH / (a.workingDayHours * 3600);
  write('events', events, workdayShare(events));
  write('passages', passages, workdayShare(passages));
  write('units', (events + passages) * 2, workdayShare(events + passages) * 2);
  write('alert-deliveries', (alarmEmails + alarmSms) * 2);
  read('alarm-receivers', alarmEmails + alarmSms);
  write('trips', trips * 2, workdayShare(trips) * 2);
  // Two strongly consistent queries of the rollups and the day's, and the previous trip's stop (eventually consistent).
  read('trips', trips * 3.5, workdayShare(trips) * 3.5);
  write('unit-days', trips, workdayShare(trips));
  read('unit-days', trips);
  // An account's month is split in MONTH_SHARDS items by IMEI (functions/trips/trip-rollup-reads.ts); a trip rewrites its unit's.
  const accountUnits = Math.min(U, a.unitsPerAccount);
  const monthItems = Math.min(MONTH_SHARDS, Math.ceil(accountUnits));
  const monthRollupItemBytes = Math.ceil(accountUnits / monthItems) * MONTH_ROLLUP_BYTES_PER_UNIT + 50;
  const monthRollupWrite = Math.max(1, Math.ceil(Math.min(monthRollupItemBytes, DYNAMODB_ITEM_LIMIT_BYTES) / 1024));
  entry('trip-rollups').wru += trips * (1 + monthRollupWrite);
  entry('trip-rollups').workdayWru += workdayShare(trips) * (1 + monthRollupWrite);
  read('other tables (API handlers)', apiCalls * a.readUnitsPerApiCall);
  entry('other tables (API handlers)').wru += apiCalls * a.writeUnitsPerApiCall;
  read('other tables (jobs)', jobRuns * a.readUnitsPerJobRun);
  // Storage at steady state: what the retention keeps.
  const kept = a.retentionDays;
  store('positions', U * (movingPositionsPerDay / a.recordsPerMessage) * kept, chunkBytes);
  store('positions', U * heartbeatsPerDay * kept);
  store('units', U);
  store('trips', U * a.tripsPerUnitDay * kept);
  store('events', U * a.eventsPerUnitDay * kept);
  store('passages', U * a.passagesPerUnitDay * kept);
  store('unit-days', U * Math.min(1, a.tripsPerUnitDay) * kept);
  store('trip-rollups', accounts * 13 * monthItems, monthRollupItemBytes);

  const rows = [...ddb.entries()].sort((x, y) => (y[1].wru * 5 + y[1].rru) - (x[1].wru * 5 + x[1].rru));
  for (const [name, e] of rows) {
    const fact: TableFact | undefined = tableFacts.get(name);
    if (!fact && !name.startsWith('other tables')) continue;
    const ia = fact?.tableClass === 'standardIa';
    if (fact?.billingMode === 'PROVISIONED' && fact.autoScaling?.length) {
      // Auto scaling keeps each dimension at its load over the target, between its minimum and
      // maximum: the working day's load (and the lag after it), then the night's.
      const dayHours = Math.min(24, a.workingDayHours + a.autoScalingLagHours);
      const daySeconds = a.workingDayHours * 3600 * DAYS_PER_MONTH;
      const nightSeconds = SECONDS_PER_MONTH - daySeconds;
      const n = copies(name);
      const load = (monthly: number, perSecondDay: number) => ({ day: perSecondDay, night: Math.max(0, monthly - perSecondDay * daySeconds) / nightSeconds });
      const tableWrites = load(e.wru / n, e.workdayWru / n);
      const tableReads = load(e.rru, e.workdayRru);
      const none = { day: 0, night: 0 };
      const full = new Set(fact.fullIndexNames ?? []);
      const capacityHours = (kind: 'read' | 'write') =>
        (fact.autoScaling ?? [])
          .filter((d) => d.kind === kind)
          .reduce((sum, d) => {
            const l = kind === 'write' ? (d.index === undefined || full.has(d.index) ? tableWrites : none) : d.index === undefined ? tableReads : none;
            const at = (perSecond: number) => Math.min(d.max, Math.max(d.min, Math.ceil(perSecond / (d.targetPercent / 100))));
            return sum + DAYS_PER_MONTH * (dayHours * at(l.day) + (24 - dayHours) * at(l.night));
          }, 0);
      const dims = (kind: 'read' | 'write') => (fact.autoScaling ?? []).filter((d) => d.kind === kind);
      const targets = [...new Set((fact.autoScaling ?? []).map((d) => d.targetPercent))].join('/');
      const indexes = new Set((fact.autoScaling ?? []).filter((d) => d.index !== undefined).map((d) => d.index)).size;
      const scope = indexes ? ` (table and ${indexes} index${indexes > 1 ? 'es' : ''})` : '';
      const prefix = ia ? 'dynamodb.standardIa.provisioned' : 'dynamodb.provisioned';
      const wcuHours = capacityHours('write');
      const rcuHours = capacityHours('read');
      if (dims('write').length) line('DynamoDB', `${name}: writes, provisioned, auto scaling to ${targets} %${scope}${ia ? ', Standard-IA' : ''}`, wcuHours, 'WCU-hours', wcuHours * p(`${prefix}.wcuHour`));
      if (dims('read').length) line('DynamoDB', `${name}: reads, provisioned, auto scaling to ${targets} %${scope}${ia ? ', Standard-IA' : ''}`, rcuHours, 'RCU-hours', rcuHours * p(`${prefix}.rcuHour`));
    } else if (fact?.billingMode === 'PROVISIONED' && fact.provisioned) {
      const hours = HOURS_PER_MONTH;
      line('DynamoDB', `${name}: provisioned ${fact.provisioned.wcu} WCU, ${fact.provisioned.rcu} RCU`, hours, 'hours', hours * (fact.provisioned.wcu * p('dynamodb.provisioned.wcuHour') + fact.provisioned.rcu * p('dynamodb.provisioned.rcuHour')));
    } else {
      const gsi = fact?.fullIndexes ? ` (with ${fact.fullIndexes} index${fact.fullIndexes > 1 ? 'es' : ''} projecting all)` : '';
      line('DynamoDB', `${name}: writes${gsi}${ia ? ', Standard-IA' : ''}`, e.wru / M, 'M WRU', (e.wru / M) * p(ia ? 'dynamodb.standardIa.writeRequestUnitsPerMillion' : 'dynamodb.onDemand.writeRequestUnitsPerMillion'));
      line('DynamoDB', `${name}: reads${ia ? ', Standard-IA' : ''}`, e.rru / M, 'M RRU', (e.rru / M) * p(ia ? 'dynamodb.standardIa.readRequestUnitsPerMillion' : 'dynamodb.onDemand.readRequestUnitsPerMillion'));
    }
    if (e.bytes > 0) {
      const gb = e.bytes / GB;
      line('DynamoDB', `${name}: storage${fact?.pitr ? ' and point-in-time recovery' : ''}${ia ? ', Standard-IA' : ''}`, gb, 'GB', gb * (p(ia ? 'dynamodb.standardIa.storagePerGbMonth' : 'dynamodb.storagePerGbMonth') + (fact?.pitr ? p('dynamodb.pitrPerGbMonth') : 0)));
    }
  }
  const missing = ['positions', 'units'].filter((t) => !tableFacts.has(t));
  if (missing.length) line('DynamoDB', `(not in the templates: ${missing.join(', ')}; not priced)`, 0, '', 0);

  // Alarms out.
  const logins = users * a.loginsPerUserMonth;
  const emails = alarmEmails + logins + exports;
  line('SES', 'e-mails: alarms, login codes, report exports', emails / 1000, 'thousand', (emails / 1000) * p('ses.perThousandEmails'));
  line('SNS', 'SMS alarms (paid by the accounts\' SMS credits)', alarmSms, 'messages', alarmSms * p('sns.smsPerMessage'), true);

  // Amazon Location.
  const known = sizes.tripEndsAtKnownPlace;
  const geocodes = trips * a.tripsShownShare * (2 - known.starts - known.stops);
  line('Amazon Location', `reverse geocoding of the ${Math.round(a.tripsShownShare * 100)} % of trips shown or reported: ${Math.round((1 - known.starts) * 100)} % of starts, ${Math.round((1 - known.stops) * 100)} % of stops (Core price; Storage use bills higher)`, geocodes / 1000, 'thousand', (geocodes / 1000) * p('location.reverseGeocodePerThousand'));
  const tiles = liveMinutes * a.mapTilesPerMapMinute;
  // Self-hosted, the street tiles are CloudFront bytes and requests (and S3 reads of its misses).
  const selfHostedTiles = inventory.selfHostedBasemap ? tiles * (1 - a.satelliteMapShare) : 0;
  if (inventory.locationApiKeys) {
    const amazonTiles = tiles - selfHostedTiles;
    line('Amazon Location', inventory.selfHostedBasemap ? `map tiles: satellite imagery (${Math.round(a.satelliteMapShare * 100)} % of map minutes; streets self-hosted)` : 'map tiles', amazonTiles / 1000, 'thousand', (amazonTiles / 1000) * p('location.mapTilesPerThousand'));
  }

  // Web: CloudFront, S3, API Gateway.
  const pageLoads = users * a.pageLoadsPerUserMonth;
  const webRequests = pageLoads * a.requestsPerPageLoad + apiCalls;
  const outGb = (pageLoads * a.kilobytesPerPageLoad * 1024 + apiCalls * a.kilobytesPerApiCall * 1024) / GB;
  if (inventory.distributions) {
    line('CloudFront', 'data out', outGb, 'GB', outGb * p('cloudfront.dataOutPerGb'));
    line('CloudFront', 'HTTPS requests', webRequests / 10_000, '10k requests', (webRequests / 10_000) * p('cloudfront.httpsRequestsPer10k'));
    if (inventory.cloudFrontFunctions) line('CloudFront', 'CloudFront Functions (brand router, viewer address)', webRequests / M, 'M', (webRequests / M) * p('cloudfront.functionsPerMillion'));
    if (selfHostedTiles) {
      const tileGb = (selfHostedTiles * a.basemapTileKilobytes * 1024) / GB;
      line('CloudFront', `self-hosted street map: data out (${a.basemapTileKilobytes} KB a tile)`, tileGb, 'GB', tileGb * p('cloudfront.dataOutPerGb'));
      line('CloudFront', 'self-hosted street map: HTTPS requests (one range a tile)', selfHostedTiles / 10_000, '10k requests', (selfHostedTiles / 10_000) * p('cloudfront.httpsRequestsPer10k'));
    }
  }
  const archiveGb = inventory.selfHostedBasemap ? a.basemapArchiveGb : 0;
  const s3Gb = (U * a.pictureKilobytesPerUnit * 1024 + exports * a.exportKilobytes * 1024 + webRequests * 400 * 3) / GB + archiveGb;
  line('S3', `storage: pictures, report exports (30 days), access logs (90 days)${archiveGb ? `, the street map archive (${archiveGb} GB)` : ''}`, s3Gb, 'GB', s3Gb * p('s3.storagePerGbMonth'));
  const s3Puts = exports + U * 0.05;
  line('S3', 'PUT requests: exports, pictures', s3Puts / 1000, 'thousand', (s3Puts / 1000) * p('s3.putPerThousand'));
  const s3Gets = pageLoads * a.requestsPerPageLoad * 0.05 + exports + selfHostedTiles * a.basemapCacheMissShare;
  line('S3', `GET requests: CloudFront misses, downloads${selfHostedTiles ? `, street map tiles (${Math.round(a.basemapCacheMissShare * 100)} % missed)` : ''}`, s3Gets / 1000, 'thousand', (s3Gets / 1000) * p('s3.getPerThousand'));
  if (inventory.httpApis) line('API Gateway', 'HTTP API requests', apiCalls / M, 'M', (apiCalls / M) * p('apigateway.httpApiPerMillion'));

  // CloudWatch and X-Ray.
  // Lambda's START, END and REPORT lines, of the functions that write them (system log level INFO, infra/constructs/portal-function.ts).
  const platformLogged = new Set(inventory.functions.filter((f) => f.platformLogs).map((f) => f.name));
  const loggedInvocations = [...invocations].filter(([name]) => platformLogged.has(name)).reduce((s, [, n]) => s + n, 0);
  const logBytes = loggedInvocations * a.platformLogBytesPerInvocation + apiCalls * (a.appLogBytesPerApiCall + a.accessLogBytesPerApiCall);
  const logGb = logBytes / GB;
  const platformLabel = loggedInvocations === 0 ? "the application's and the API's access log; Lambda's own lines off" : `with Lambda's own lines of ${platformLogged.size} of ${inventory.functions.length} functions`;
  line('CloudWatch', `logs ingested (${platformLabel})`, logGb, 'GB', logGb * p('cloudwatch.logsIngestPerGb'));
  const retentions = inventory.logGroups.map((g) => g.retentionDays).filter((d) => d > 0).sort((x, y) => x - y);
  const retention = retentions[Math.floor(retentions.length / 2)] ?? 30;
  const storedGb = logGb * (retention / DAYS_PER_MONTH) * a.logCompression;
  line('CloudWatch', `logs stored (${retention} days)`, storedGb, 'GB', storedGb * p('cloudwatch.logsStoragePerGbMonth'));
  line('CloudWatch', 'custom metrics (EMF)', a.customMetricSeries, 'metrics', a.customMetricSeries * p('cloudwatch.metricPerMonth'));
  if (inventory.routeMetrics) {
    // API Gateway's detailed metrics: Count, 4xx, 5xx, Latency, IntegrationLatency and DataProcessed per route, for the hours it is called.
    const metrics = inventory.httpRoutes * API_ROUTE_METRICS * a.routeMetricHoursShare;
    line('CloudWatch', `HTTP API per-route metrics (${inventory.httpRoutes} routes x ${API_ROUTE_METRICS}, ${Math.round(a.routeMetricHoursShare * 100)} % of the hours)`, metrics, 'metrics', metrics * p('cloudwatch.metricPerMonth'));
  }
  line('CloudWatch', 'alarms', inventory.alarms, 'alarms', inventory.alarms * p('cloudwatch.alarmPerMonth'), false, true);
  line('CloudWatch', 'dashboards', inventory.dashboards, 'dashboards', inventory.dashboards * p('cloudwatch.dashboardPerMonth'), false, true);
  // Lambda's X-Ray sampling: the first request each second and 5 % of the others, per function.
  let traces = 0;
  for (const f of inventory.functions.filter((fn) => fn.tracing)) {
    const n = invocations.get(f.name) ?? 0;
    traces += Math.min(n, SECONDS_PER_MONTH) + 0.05 * Math.max(0, n - SECONDS_PER_MONTH);
  }
  line('X-Ray', `traces recorded (${inventory.functions.filter((f) => f.tracing).length} functions with active tracing)`, traces / M, 'M', (traces / M) * p('xray.tracesRecordedPerMillion'));

  // Identity, secrets, keys, schedules.
  for (const pool of inventory.userPools) {
    const mau = users * a.activeUserShare;
    const billable = Math.max(0, mau - includedOf(prices, 'cognito.essentialsMau'));
    const key = pool.tier === 'LITE' ? 'cognito.litePerMau' : 'cognito.essentialsPerMau';
    line('Cognito', `${pool.tier.toLowerCase()} tier: ${Math.round(mau)} MAUs, ${Math.round(billable)} beyond the included`, billable, 'MAU', billable * p(key), false, true);
  }
  line('Secrets Manager', 'secrets (the origin secret)', inventory.secrets, 'secrets', inventory.secrets * p('secretsmanager.secretPerMonth'));
  line('KMS', 'customer managed keys (the stack encrypts with AWS-managed keys otherwise)', inventory.kmsKeys, 'keys', inventory.kmsKeys * p('kms.customerKeyPerMonth'), false, true);
  const billableRuns = Math.max(0, jobRuns - includedOf(prices, 'scheduler.invocations'));
  line('EventBridge Scheduler', `job invocations (${Math.round(jobRuns)}, ${includedOf(prices, 'scheduler.invocations') / M} M included)`, billableRuns / M, 'M', (billableRuns / M) * p('scheduler.invocationsPerMillion'));

  const total = lines.reduce((s, l) => s + l.usd, 0);
  const platformTotal = lines.filter((l) => !l.passThrough).reduce((s, l) => s + l.usd, 0);
  const workdayUnitsPerSecond = Object.fromEntries([...ddb.entries()].filter(([, e]) => e.workdayWru || e.workdayRru).map(([t, e]) => [t, { wru: e.workdayWru, rru: e.workdayRru }]));
  return {
    assumptions: a,
    lines,
    total,
    platformTotal,
    perUnitMonth: platformTotal / U,
    usage: {
      positionsPerMonth,
      messagesPerMonth,
      averageMessagesPerSecond,
      workdayMessagesPerSecond,
      allMovingMessagesPerSecond,
      streamRecordBytes,
      streamShards,
      streamMode: stream?.mode ?? 'none',
      ingestLanes: lanes,
      ingestMessagesPerInvocation: dayBatch,
      ingestInvocationMs: ingestMs,
      ingestConcurrency,
      livePublishesPerMonth: livePublishes,
      liveDeliveriesPerMonth: liveDeliveries,
      liveViewersPerAccount,
      liveWatchedShare: a.liveOnlyWhileWatched ? liveWatchedShare : 1,
      browserConnectionsAtPeak: (users * a.liveMapMinutesPerUserMonth) / (a.workingDayHours * 60 * DAYS_PER_MONTH),
      tripsPerMonth: trips,
      apiCallsPerMonth: apiCalls,
      workdayUnitsPerSecond,
      monthRollupItemBytes,
    },
  };
}

/** Cost by service, largest first. */
export function byService(e: Estimate): Array<{ service: string; usd: number }> {
  const m = new Map<string, number>();
  for (const l of e.lines) m.set(l.service, (m.get(l.service) ?? 0) + l.usd);
  return [...m.entries()].map(([service, usd]) => ({ service, usd })).sort((x, y) => y.usd - x.usd);
}

/** The target: at most this per unit and month at 10,000 units. */
export const TARGET_PER_UNIT_MONTH = 0.05;
export const TARGET_UNITS = 10_000;
