/**
 * What `npm run cost` prints and what it writes into docs/capacity.md, from the model's estimates:
 * the table of one estimate, the summary over fleet sizes, the design notes (each a variant of
 * the same estimate: what changing one choice would save) and the capacity block.
 */
import { RECENT_TRIPS, SAME_PLACE_M } from '../../functions/trips/known-places';
import { OPS_METRICS } from '../../functions/platform/metrics';
import { webRoutePatterns } from '../../shared/web-routes';
import { vitalNames } from '../../shared/web-vitals';
import type { Inventory } from './assembly';
import { customMetricSeries } from './metric-series';
import { byService, DYNAMODB_ITEM_LIMIT_BYTES, estimate, HOURS_PER_MONTH, MONTH_ROLLUP_BYTES_PER_UNIT, SECONDS_PER_MONTH, TARGET_PER_UNIT_MONTH, TARGET_UNITS, type Assumptions, type Estimate, type ItemSizes, type RunsPerMonth } from './model';
import { priceOf, type PriceList } from './prices';

export interface ModelInputs {
  readonly inventory: Inventory;
  readonly prices: PriceList;
  readonly sizes: ItemSizes;
  readonly runsPerMonth: RunsPerMonth;
}

export const usd = (x: number): string => (x >= 100 ? `$${Math.round(x).toLocaleString('en-US')}` : x >= 1 ? `$${x.toFixed(2)}` : `$${x.toFixed(4)}`);
const qty = (x: number): string => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x >= 1 ? x.toFixed(1) : x.toPrecision(2));
const int = (x: number): string => Math.round(x).toLocaleString('en-US');

export function run(inputs: ModelInputs, a: Assumptions): Estimate {
  return estimate(inputs.inventory, inputs.prices, inputs.sizes, a, inputs.runsPerMonth);
}

/** The same assumptions for another fleet size, users in the same ratio. */
export function scaled(a: Assumptions, units: number): Assumptions {
  return { ...a, units, users: Math.max(1, Math.round((a.users / a.units) * units)) };
}

export function assumptionLines(a: Assumptions): string[] {
  return [
    `${int(a.units)} units, ${int(a.users)} portal users (${int(a.unitsPerAccount)} units per account)`,
    `a unit: a position every ${a.intervalSeconds} s while moving, ${a.movingHoursPerDay} h a day, a heartbeat every ${a.parkedHeartbeatMinutes} min parked; ${a.recordsPerMessage} position(s) per MQTT message of ${a.recordBytes * a.recordsPerMessage} B; connected ${a.trackerConnectedHoursPerDay} h a day; ${a.basicIngest ? 'Basic Ingest' : 'published to the broker (not Basic Ingest)'}`,
    `movement and map viewing fall in a ${a.workingDayHours}-hour working day`,
    `a unit a day: ${a.tripsPerUnitDay} trips, ${a.eventsPerUnitDay} events, ${a.passagesPerUnitDay} congestion passages; a month: ${a.alarmEmailsPerUnitMonth} alarm e-mails, ${a.alarmSmsPerUnitMonth} alarm SMS`,
    `a user a month: ${int(a.apiCallsPerUserMonth)} API calls (${a.apiCallMs} ms, ${a.readUnitsPerApiCall} read units each), ${a.liveMapMinutesPerUserMonth} live map minutes, ${a.pageLoadsPerUserMonth} page loads (${a.kilobytesPerPageLoad} KB), ${a.reportExportsPerUserMonth} report exports, ${a.loginsPerUserMonth} logins; ${Math.round(a.activeUserShare * 100)} % active (MAU)`,
    `positions, trips and events kept ${a.retentionDays} days; ingest invocation ${a.ingestBaseMs} ms + ${a.ingestPerMessageMs} ms per message; auto-scaled tables keep the working day's capacity ${a.autoScalingLagHours} h after it`,
  ];
}

export function costTable(e: Estimate): string {
  const rows = e.lines.map((l) => [l.service, l.item, l.unit ? `${qty(l.quantity)} ${l.unit}` : '', usd(l.usd)]);
  const widths = [0, 1, 2].map((i) => Math.min(i === 1 ? 100 : 40, Math.max(...rows.map((r) => (r[i] as string).length))));
  // A long item keeps its whole text and pushes its own figures right.
  const out = rows.map((r) => `  ${(r[0] as string).padEnd(widths[0] as number)}  ${(r[1] as string).padEnd(widths[1] as number)}  ${(r[2] as string).padStart(widths[2] as number)}  ${(r[3] as string).padStart(9)}`);
  out.push('', '  By service:');
  for (const s of byService(e)) out.push(`    ${s.service.padEnd(24)} ${usd(s.usd).padStart(10)}  ${((s.usd / e.total) * 100).toFixed(1).padStart(5)} %`);
  out.push(`    ${'total'.padEnd(24)} ${usd(e.total).padStart(10)}`);
  out.push(`    ${'without pass-through'.padEnd(24)} ${usd(e.platformTotal).padStart(10)}  per unit-month ${usd(e.perUnitMonth)} (SMS is paid by the accounts' SMS credits)`);
  return out.join('\n');
}

export interface SummaryRow {
  readonly label: string;
  readonly estimate: Estimate;
}

export function summaryRows(inputs: ModelInputs, a: Assumptions): SummaryRow[] {
  return [
    { label: `as given (${int(a.units)} units)`, estimate: run(inputs, a) },
    ...[1_000, 10_000, 100_000].map((n) => ({ label: `${int(n)} units`, estimate: run(inputs, scaled(a, n)) })),
  ];
}

export function summaryText(rows: readonly SummaryRow[]): string {
  return rows
    .map((r) => `  ${r.label.padEnd(28)} ${usd(r.estimate.total).padStart(10)} a month, ${usd(r.estimate.platformTotal).padStart(10)} without SMS   ${usd(r.estimate.perUnitMonth).padStart(8)} per unit-month`)
    .join('\n');
}

/** Met when the estimate at 10,000 units (same assumptions otherwise) costs at most the target per unit-month. */
export function targetCheck(inputs: ModelInputs, a: Assumptions): { met: boolean; perUnitMonth: number; text: string } {
  const e = run(inputs, scaled(a, TARGET_UNITS));
  const met = e.perUnitMonth <= TARGET_PER_UNIT_MONTH;
  return { met, perUnitMonth: e.perUnitMonth, text: `target at ${int(TARGET_UNITS)} units: at most ${usd(TARGET_PER_UNIT_MONTH)} per unit-month; estimated ${usd(e.perUnitMonth)}: ${met ? 'met' : 'MISSED'}` };
}

/** A provisioned stream too small for the load: Kinesis refuses what is over a shard's 1,000 records/s (the rules' error action sends it to the ingest failure queue). */
export function streamWarning(inputs: ModelInputs, e: Estimate): string | null {
  const stream = inputs.inventory.streams[0];
  if (!stream || stream.mode !== 'PROVISIONED') return null;
  const takes = stream.shards * 1000;
  const u = e.usage;
  if (u.allMovingMessagesPerSecond <= takes) return null;
  return `The stream's ${stream.shards} provisioned shard(s) take ${takes.toLocaleString('en-US')} records/s; the working day brings ${Math.round(u.workdayMessagesPerSecond).toLocaleString('en-US')}/s and every tracker moving at once ${Math.round(u.allMovingMessagesPerSecond).toLocaleString('en-US')}/s. ${u.workdayMessagesPerSecond > takes ? 'Records over that are refused and end in the ingest failure queue: the stream needs more shards or on-demand mode.' : 'A peak beyond that is refused: more shards or on-demand mode.'}`;
}

/** What one choice changed would save at `a`'s fleet size: each note is the same model run on a variant. */
export function designNotes(inputs: ModelInputs, a: Assumptions): string[] {
  const base = run(inputs, a);
  const saving = (variant: Estimate) => base.platformTotal - variant.platformTotal;
  const per = (x: number) => `${usd(x)} a month (${usd(x / a.units)} per unit-month)`;
  const notes: string[] = [];
  const inv = inputs.inventory;

  if (!a.basicIngest) {
    const s = saving(run(inputs, { ...a, basicIngest: true }));
    notes.push(`Basic Ingest: trackers publishing to $aws/rules/<rule>/trackers/<imei>/telemetry skip the broker's messaging charge: saves ${per(s)}. It is what \`npm run provision\` configures trackers with (docs/decisions/0003); this estimate prices the plain topics (--no-basic-ingest).`);
  } else {
    const s = -saving(run(inputs, { ...a, basicIngest: false }));
    notes.push(`Done: trackers are provisioned with Basic Ingest topics ($aws/rules/<rule>/trackers/<imei>/telemetry; \`npm run provision\`, docs/decisions/0003), which skip the broker's messaging charge. Trackers on the plain topics (docs/api.md; a Teltonika device whose topic cannot be set) would add ${per(s)} (--no-basic-ingest).`);
  }
  if (a.recordsPerMessage === 1) {
    const s = saving(run(inputs, { ...a, recordsPerMessage: 10 }));
    notes.push(`Trackers buffering 10 positions per message (same positions, a tenth of the messages): saves ${per(s)} in messages, rules, stream records, invocations, unit transitions and positions items (a message's positions are one item); live positions then arrive up to ${a.intervalSeconds * 9} s late.`);
  }
  if (inv.batchingWindowSeconds > 0) {
    const unbatched = run({ ...inputs, inventory: { ...inv, batchingWindowSeconds: 0, parallelizationFactor: 10 } }, a);
    notes.push(
      `Done: the ingest mapping waits up to ${inv.batchingWindowSeconds} s for a batch and reads each shard in ${inv.parallelizationFactor} lanes (shared/ingest-stream.ts, docs/decisions/0003), so an invocation takes ${base.usage.ingestMessagesPerInvocation.toFixed(1)} messages of the working day instead of ${unbatched.usage.ingestMessagesPerInvocation.toFixed(1)}: saves ${per(unbatched.platformTotal - base.platformTotal)} against no window and 10 lanes a shard; positions reach the map and the alarms up to ${inv.batchingWindowSeconds} s later.`,
    );
  }
  const stream = inv.streams[0];
  if (stream) {
    const other = stream.mode === 'ON_DEMAND'
      ? { mode: 'PROVISIONED' as const, shards: Math.max(1, Math.ceil((base.usage.workdayMessagesPerSecond * 1.25) / 1000)) }
      : { mode: 'ON_DEMAND' as const, shards: 0 };
    const variant = run({ ...inputs, inventory: { ...inv, streams: [{ ...stream, ...other }] } }, a);
    const d = base.platformTotal - variant.platformTotal;
    notes.push(
      `Kinesis ${stream.mode === 'ON_DEMAND' ? 'on demand' : `provisioned (${stream.shards} shard(s))`} as synthesized; ${other.mode === 'ON_DEMAND' ? 'on demand' : `provisioned with ${other.shards} shard(s) (working-day peak + 25 %)`} would cost ${d >= 0 ? `${per(d)} less` : `${per(-d)} more`}${other.mode === 'PROVISIONED' ? ', but needs someone to add shards as the fleet grows' : ''}.`,
    );
  }
  const units = inv.tables.find((t) => t.name === 'units');
  if (units?.fullIndexes) {
    const variant = run({ ...inputs, inventory: { ...inv, tables: inv.tables.map((t) => (t.name === 'units' ? { ...t, fullIndexes: 0, ...(t.fullIndexNames ? { fullIndexNames: [] } : {}) } : t)) } }, a);
    notes.push(`The units table's byAccount index, which the map's pages read with each unit's state, projects every attribute, so each position's transition (state, stages, effects) is written twice. Keeping only keys there and reading the map's pages by key (BatchGetItem, 100 units a call) saves ${per(saving(variant))}, at the price of slower map pages (shared/tables.ts; byAccountName already keeps no state).`);
  }
  const unitWrite = inputs.sizes.tables['units']?.writeUnits ?? 1;
  if (unitWrite > 1) {
    const variant = run({ ...inputs, sizes: { ...inputs.sizes, tables: { ...inputs.sizes.tables, units: { ...(inputs.sizes.tables['units'] as ItemSizes['tables'][string]), writeUnits: 1 } } } }, a);
    notes.push(`Units items over 1 KB cost 2 write units per transition (measured: ${unitWrite} write units a write on average, items of ${inputs.sizes.tables['units']?.meanBytes ?? '?'} B mean and up to ${inputs.sizes.tables['units']?.maxBytes ?? '?'} B). Keeping the item under 1 KB (the names history and larger stage state elsewhere) saves ${per(saving(variant))}.`);
  }
  if (a.tripsShownShare < 1) {
    const atClose = run(inputs, { ...a, tripsShownShare: 1 });
    notes.push(
      `Done: a trip's addresses are looked up when it is first shown in the trip log or reported, not when it closes (functions/trips/trip-addresses.ts), for the ${Math.round(a.tripsShownShare * 100)} % of trips assumed ever shown: saves ${per(atClose.platformTotal - base.platformTotal)} against every trip at its close. ` +
        `A list waits up to 2 s for them, a report 5 s, an export 3 minutes; the rest comes from the trip-addresses queue for the next list. If every trip were shown (every car a körjournal's), the saving would be nothing.`,
    );
  }
  const reuse = inputs.sizes.tripEndsAtKnownPlace;
  if (reuse.starts > 0 || reuse.stops > 0) {
    const before = run({ ...inputs, sizes: { ...inputs.sizes, tripEndsAtKnownPlace: { starts: 0, stops: 0 } } }, a);
    const startsOnly = run({ ...inputs, sizes: { ...inputs.sizes, tripEndsAtKnownPlace: { starts: reuse.starts, stops: 0 } } }, a);
    notes.push(
      `Done: a trip end where its unit parked before (the previous stop, an end of one of its ${RECENT_TRIPS} latest trips, within ${SAME_PLACE_M} m) takes that address instead of a geocoder call (functions/trips/trip-addresses.ts; ${Math.round(reuse.starts * 100)} % of the demo fleet's starts and ${Math.round(reuse.stops * 100)} % of its stops): saves ${per(before.platformTotal - base.platformTotal)} against geocoding both ends. ` +
        `The demo fleet drives between a road network's named places, so it returns to known places more often than a service van visiting new customers; with only starts at the previous stop reused, geocoding would cost ${per(startsOnly.platformTotal - base.platformTotal)} more.`,
    );
  }
  const publishes = base.lines.filter((l) => l.item.startsWith('messaging: live publishes')).reduce((s, l) => s + l.usd, 0);
  if (!a.liveOnlyWhileWatched && publishes > 0) {
    const s = saving(run(inputs, { ...a, liveOnlyWhileWatched: true }));
    notes.push(`Ingest publishes every position live whether or not a browser watches its account: ${per(publishes)}. Publishing only while the account is watched (docs/decisions/0051) saves ${per(s)}.`);
  } else if (a.liveOnlyWhileWatched) {
    const s = -saving(run(inputs, { ...a, liveOnlyWhileWatched: false }));
    notes.push(
      `Done: ingest publishes live only while a browser watches the account (the live authorizer's mark, renewed at each refresh and gone 6 minutes after the last; docs/decisions/0051): ${per(publishes)} for the ${Math.round(base.usage.liveWatchedShare * 100)} % of the working day an account is watched ` +
        `(${base.usage.liveViewersPerAccount.toFixed(2)} viewers per account on average, arriving independently: 1 - e^-λ, each session lengthened by the mark's tail). Publishing every position would add ${per(s)}.`,
    );
  }
  const positionsGb = base.lines.find((l) => l.item.startsWith('positions: storage'))?.quantity ?? 0;
  const positions = inv.tables.find((t) => t.name === 'positions');
  if (positionsGb > 0 && positions) {
    const ia = positions.tableClass === 'standardIa';
    const other = run({ ...inputs, inventory: { ...inv, tables: inv.tables.map((t) => (t === positions ? { ...t, tableClass: ia ? 'standard' : 'standardIa' } : t)) } }, a);
    const s3 = 'moving positions older than a few weeks to S3 (compressed, read by the history and reports) would save most of the storage and point-in-time recovery';
    notes.push(
      ia
        ? `Done: positions keeps ${Math.round(positionsGb)} GB (${a.retentionDays} days of every position) in the Standard-IA table class (storage at 40 %, reads and writes at 125 %; shared/tables.ts), which saves ${per(other.platformTotal - base.platformTotal)} against Standard; ${s3}.`
        : `positions keeps ${Math.round(positionsGb)} GB (${a.retentionDays} days of every position). The Standard-IA table class (storage at 40 %, reads and writes at 125 %) saves ${per(base.platformTotal - other.platformTotal)}; ${s3}.`,
    );
  }
  if (inv.selfHostedBasemap && inv.locationApiKeys) {
    const amazonStreets = run({ ...inputs, inventory: { ...inv, selfHostedBasemap: false } }, a);
    notes.push(
      `Done: the street map is self-hosted (a Protomaps archive in the stack's basemap bucket behind CloudFront, \`selfHostedBasemap\`, docs/decisions/0052), Amazon Location serving satellite imagery only (${Math.round(a.satelliteMapShare * 100)} % of map minutes assumed): saves ${per(amazonStreets.platformTotal - base.platformTotal)} against Amazon Location's tiles for both, with street tiles of ${a.basemapTileKilobytes} KB and the archive stored whole (${a.basemapArchiveGb} GB).`,
    );
  }
  const routeMetrics = base.lines.find((l) => l.item.startsWith('HTTP API per-route metrics'));
  if (routeMetrics) {
    notes.push(`The HTTP API's per-route metrics cost ${per(routeMetrics.usd)}, whatever the fleet's size; \`-c apiRouteMetrics=false\` (the default) turns them off: the dashboard's latency per route then comes from the access log alone.`);
  } else if (inv.httpApis) {
    const withRouteMetrics = run({ ...inputs, inventory: { ...inv, routeMetrics: true } }, a);
    notes.push(`Done: the HTTP API publishes no per-route metrics (\`apiRouteMetrics\` false, the default); the dashboard's latency per route is a Logs Insights query of the access log, which bills the log data it scans when the dashboard is shown. \`-c apiRouteMetrics=true\` would add ${per(-saving(withRouteMetrics))}, whatever the fleet's size.`);
  }
  const running = inv.functions.filter((f) => f.group !== 'deploy-time');
  if (running.length && running.every((f) => !f.platformLogs)) {
    const withPlatformLogs = run({ ...inputs, inventory: { ...inv, functions: inv.functions.map((f) => ({ ...f, platformLogs: true })) } }, a);
    notes.push(`Done: the functions log in Lambda's JSON format with the system log level at WARN (infra/constructs/portal-function.ts), so Lambda writes no START, END and REPORT lines (about ${a.platformLogBytesPerInvocation} B) for each invocation; durations, errors and throttles stay metrics. Those lines would add ${per(withPlatformLogs.platformTotal - base.platformTotal)}, most of it for ingest's invocations.`);
  }
  const perRouteVitals = customMetricSeries([['Route'], []]);
  if (a.customMetricSeries < perRouteVitals) {
    const withRoutes = run(inputs, { ...a, customMetricSeries: perRouteVitals });
    notes.push(`Done: the web vitals' metrics have no Route dimension (functions/vitals/emf.ts): ${a.customMetricSeries} custom metrics (${vitalNames.length} vitals over all routes, ${OPS_METRICS.length} operational counts, the alarms' and the dashboard's). The dashboard's vitals per route are a Logs Insights query of the vitals log, the support page has each route's histograms; a series per route (${webRoutePatterns.length} route patterns) would add ${per(withRoutes.platformTotal - base.platformTotal)} with every route visited every hour (CloudWatch bills a series for the hours it is emitted).`);
  }
  const traced = inv.functions.filter((f) => f.tracing);
  const ours = inv.functions.filter((f) => f.group !== 'deploy-time');
  if (traced.length) {
    const variant = run({ ...inputs, inventory: { ...inv, functions: inv.functions.map((f) => ({ ...f, tracing: false })) } }, a);
    notes.push(
      traced.length < ours.length
        ? `X-Ray active tracing on ${traced.length} of ${ours.length} functions (those the HTTP API and IoT Core call; ingest and the stream, queue and schedule consumers record no traces of their own): ${per(saving(variant))}. Lambda samples active tracing itself (the first request each second and 5 % of the rest) and X-Ray's sampling rules do not apply to it, so a rule of a few requests a minute cannot lower this; only fewer traced functions can (infra/constructs/portal-function.ts).`
        : `X-Ray active tracing on ${traced.length} functions: ${per(saving(variant))}. Passing tracing through on ingest and the queue consumers keeps the traces of the API for much less (infra/constructs/portal-function.ts); X-Ray's sampling rules do not apply to Lambda's active tracing.`,
    );
  }
  const deliveries = base.lines.filter((l) => l.item.startsWith('messaging: live deliveries')).reduce((s, l) => s + l.usd, 0);
  if (deliveries > 0) {
    notes.push(`Live deliveries grow with units per account x viewers: ${per(deliveries)} at ${a.unitsPerAccount} units per account, ${usd((deliveries / a.units) * (5000 / a.unitsPerAccount))} per unit-month at 5,000. A browser subscribing to the units it shows (the map's page or viewport) instead of the whole account's topic keeps it flat.`);
  }
  const steady = inv.tables.filter((t) => t.name === 'positions' || t.name === 'units');
  const scaled = steady.filter((t) => t.billingMode === 'PROVISIONED' && t.autoScaling?.length);
  if (scaled.length) {
    // The same tables on demand: the saving of the provisioned capacity.
    const onDemand = run({ ...inputs, inventory: { ...inv, tables: inv.tables.map((t) => (scaled.includes(t) ? { name: t.name, billingMode: 'PAY_PER_REQUEST' as const, indexes: t.indexes, fullIndexes: t.fullIndexes, pitr: t.pitr, tableClass: t.tableClass } : t)) } }, a);
    const targets = [...new Set(scaled.flatMap((t) => (t.autoScaling ?? []).map((d) => d.targetPercent)))].join('/');
    notes.push(
      `Done: ${scaled.map((t) => t.name).join(' and ')} ${scaled.length > 1 ? 'are' : 'is'} provisioned with auto scaling to ${targets} % utilisation (shared/tables.ts \`provisioned\`, infra/constructs/data-tables.ts), which saves ${per(onDemand.platformTotal - base.platformTotal)} against on demand. ` +
        `A burst beyond the provisioned capacity (a fleet's morning start faster than auto scaling's minutes) spends the table's burst capacity, then is throttled: ingest retries with backoff and the stream retries the batch, so positions arrive late rather than lost (docs/decisions/0050).`,
    );
  } else {
    const ondemand = base.lines.filter((l) => l.service === 'DynamoDB' && / writes/.test(l.item) && /^(positions|units):/.test(l.item)).reduce((s, l) => s + l.usd, 0);
    if (ondemand > 0) {
      const perWcuMonth = priceOf(inputs.prices, 'dynamodb.provisioned.wcuHour') * HOURS_PER_MONTH;
      const perMillion = priceOf(inputs.prices, 'dynamodb.onDemand.writeRequestUnitsPerMillion');
      // A provisioned WCU-month at 50 % average utilisation writes SECONDS_PER_MONTH / 2 units.
      const ratio = perWcuMonth / ((SECONDS_PER_MONTH / 2 / 1e6) * perMillion);
      notes.push(`positions and units are written at a steady, predictable rate: provisioned capacity with auto scaling at 50 % average utilisation costs ${Math.round(ratio * 100)} % of on demand for those writes (saves about ${per(ondemand * (1 - ratio))}); a change in infra/constructs/data-tables.ts.`);
    }
  }
  if (base.usage.monthRollupItemBytes > DYNAMODB_ITEM_LIMIT_BYTES / 4) {
    notes.push(`Each of the fleet overview's month rollup items holds ${MONTH_ROLLUP_BYTES_PER_UNIT} B per unit of its share of the account: ${Math.round(base.usage.monthRollupItemBytes / 1024)} KB at ${a.unitsPerAccount} units, each trip of those units rewriting all of it; DynamoDB refuses items over 400 KB.`);
  }
  return notes;
}
