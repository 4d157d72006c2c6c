/**
 * The table manifest: every DynamoDB table of the product, once. The CDK stack and the embedded
 * runtime both create their tables from this list; handlers find a table's physical name through
 * `physicalTableName`.
 */
export type KeyType = 'S' | 'N';

export interface KeyDef {
  readonly name: string;
  readonly type: KeyType;
}

export interface IndexDef {
  readonly name: string;
  readonly partitionKey: KeyDef;
  readonly sortKey?: KeyDef;
  /**
   * The attributes beside the keys that the index keeps (DynamoDB's INCLUDE projection); without
   * it the index keeps every attribute (ALL). A write that changes only attributes the index does
   * not keep is not written to the index, so an index of a often-written table keeps only what
   * changes seldom.
   */
  readonly include?: readonly string[];
}

export interface TableDef {
  readonly name: string;
  readonly description: string;
  readonly partitionKey: KeyDef;
  readonly sortKey?: KeyDef;
  readonly indexes?: readonly IndexDef[];
  /** Attribute holding an epoch-seconds expiry; DynamoDB deletes expired items. */
  readonly ttlAttribute?: string;
  /** Exists only in the embedded runtime (never deployed). */
  readonly embeddedOnly?: boolean;
  /**
   * DynamoDB's Standard-Infrequent Access table class on AWS: storage at 40 % of Standard's price,
   * reads and writes at 125 %. For a table whose storage costs more than its requests.
   */
  readonly infrequentAccess?: true;
  /**
   * Provisioned capacity with auto scaling on AWS instead of on demand (the embedded runtime's
   * DynamoDB Local has no capacity): for a table written at a steady, predictable rate, where a
   * provisioned unit at the target utilisation costs about half of on demand's requests
   * (docs/decisions/0050-provisioned-steady-tables.md). The table's and each index's reads and
   * writes follow their consumption between `min` and `max`; a burst beyond what is provisioned
   * spends the table's burst capacity (up to 300 s of unused capacity), then is throttled and
   * retried by the writer (functions/ingest/batch-write.ts) until auto scaling catches up.
   */
  readonly provisioned?: ProvisionedCapacity;
}

export interface CapacityRange {
  readonly min: number;
  readonly max: number;
}

export interface ProvisionedCapacity {
  /** Consumed over provisioned, per cent, that auto scaling keeps (DynamoDB accepts 20 to 90). */
  readonly targetUtilizationPercent: number;
  readonly writes: CapacityRange;
  readonly reads: CapacityRange;
  /** Per index: an index written only when what it keeps changes needs less than the table. */
  readonly indexes?: Readonly<Record<string, { readonly writes: CapacityRange; readonly reads: CapacityRange }>>;
}

/**
 * Auto scaling's target for the steadily written tables: 60 % leaves room for the working day's
 * morning ramp while auto scaling adds capacity (it reacts to two minutes above the target).
 */
export const STEADY_TARGET_UTILIZATION = 60;

const s = (name: string): KeyDef => ({ name, type: 'S' });

/** What the units list searches and shows of a unit beside its keys (imei, accountId, name) and ingest's state. */
export const UNIT_LIST_FIELDS = ['registrationNumber', 'vehicleType', 'protocol', 'createdAt', 'color', 'symbol', 'driver', 'departments', 'departmentIds', 'tagIds', 'lockedBy', 'lockedByName', 'doutLabels'] as const;
const n = (name: string): KeyDef => ({ name, type: 'N' });

export const tables = {
  accounts: {
    name: 'accounts',
    description: 'Customer accounts: company or private owner, feature flags, SMS credits.',
    partitionKey: s('accountId'),
    // Sparse: only an account under a parent carries `parentAccountId` (its parentId; parentId itself
    // is null on the others, which a key attribute cannot be). The parent's alert numbers page
    // (functions/alarms) lists its accounts with one Query.
    indexes: [
      { name: 'byParent', partitionKey: s('parentAccountId'), sortKey: s('accountId') },
      // Support's account search (functions/support, docs/decisions/0026-organisation-profiles-support.md):
      // `searchBucket` is the first character of the normalised company name and `searchName` the
      // whole of it (with the account id), so a name prefix is one Query; `orgNumberKey` is the org
      // number's digits. Written with the account (functions/domain/account/search-keys.ts).
      { name: 'byName', partitionKey: s('searchBucket'), sortKey: s('searchName') },
      { name: 'byOrgNumber', partitionKey: s('orgNumberKey'), sortKey: s('accountId') },
    ],
  },
  users: {
    name: 'users',
    description: 'Portal users of an account (the identity itself lives in the IdentityProvider).',
    partitionKey: s('userId'),
    indexes: [{ name: 'byAccount', partitionKey: s('accountId'), sortKey: s('userId') }],
  },
  uniques: {
    name: 'uniques',
    description: 'Uniqueness claims (e-mail, username, registered IMEI) written in transactions.',
    partitionKey: s('key'),
  },
  inventory: {
    name: 'inventory',
    description: 'Trackers provisioned by ops; a registration claims one.',
    partitionKey: s('imei'),
  },
  units: {
    name: 'units',
    description: 'Registered units with their latest reported state.',
    partitionKey: s('imei'),
    indexes: [
      { name: 'byAccount', partitionKey: s('accountId'), sortKey: s('imei') },
      // The units list and pickers page through an account's units by name (functions/units/unit-pages.ts,
      // docs/decisions/0044-large-unit-lists.md): every unit has a name, so no attribute needs filling in.
      // It keeps what the list searches and shows but not ingest's state, so a position's transition
      // is not written to it; the list reads the state of a page's units by key.
      { name: 'byAccountName', partitionKey: s('accountId'), sortKey: s('name'), include: UNIT_LIST_FIELDS },
    ],
    // Every tracker message transitions its unit and reads it first (strongly consistent): a steady
    // rate that follows the fleet's working day. byAccount keeps every attribute, so it takes each
    // transition too; byAccountName only a rename or a list field's change.
    provisioned: {
      targetUtilizationPercent: STEADY_TARGET_UTILIZATION,
      writes: { min: 5, max: 10_000 },
      reads: { min: 5, max: 10_000 },
      indexes: {
        byAccount: { writes: { min: 5, max: 10_000 }, reads: { min: 5, max: 5_000 } },
        byAccountName: { writes: { min: 2, max: 1_000 }, reads: { min: 5, max: 5_000 } },
      },
    },
  },
  positions: {
    name: 'positions',
    description: 'Raw positions; identity is (IMEI, device time); expire after the account retention.',
    partitionKey: s('imei'),
    sortKey: n('ts'),
    ttlAttribute: 'expiresAt',
    // Each position's fields packed into one binary attribute `p` beside the keys, the TTL and the
    // late flag (functions/ingest/position-codec.ts): storage is billed by the names' bytes too.
    // 395 days of every position: its storage costs about three times its writes (docs/capacity.md).
    infrequentAccess: true,
    // One write per position, at the fleet's steady rate; reads are the history's and the trip
    // detection's Queries, a fraction of that.
    provisioned: {
      targetUtilizationPercent: STEADY_TARGET_UTILIZATION,
      writes: { min: 5, max: 10_000 },
      reads: { min: 5, max: 10_000 },
    },
  },
  commands: {
    name: 'commands',
    description: 'Device commands and their pending/acknowledged state.',
    partitionKey: s('imei'),
    sortKey: s('commandId'),
    // Sparse: only a command still waiting for its first answer carries these two attributes, so
    // the time-out job finds the overdue ones with a Query instead of a Scan.
    indexes: [{ name: 'pending', partitionKey: s('pendingBucket'), sortKey: n('pendingSince') }],
    ttlAttribute: 'expiresAt',
  },
  tokens: {
    name: 'tokens',
    description: 'Short-lived secrets by hash: sessions, 2FA challenges, reset codes, trusted browsers.',
    partitionKey: s('id'),
    ttlAttribute: 'expiresAt',
  },
  rateLimits: {
    name: 'rate-limits',
    description: 'Fixed-window counters for login, 2FA and e-mail lookups.',
    partitionKey: s('key'),
    ttlAttribute: 'expiresAt',
  },
  announcements: {
    name: 'announcements',
    description: 'Announcement bar text per brand and language.',
    partitionKey: s('subsiteId'),
    sortKey: s('lang'),
  },
  // Web vitals for the support page (functions/vitals, docs/decisions/0042-web-vitals.md): per UTC
  // day, one item per hour, metric and route pattern (`<yyyy-MM-ddTHH>#<metric>#<route>`) holding a
  // count per rating and per histogram bin, each added atomically; a week is 8 Queries.
  webVitals: {
    name: 'web-vitals',
    description:
      'Web vitals per UTC day (`day`), one item per hour, metric and route pattern (`sk`) with counts per rating and per logarithmic bin (added with ADD); expire after 8 days.',
    partitionKey: s('day'),
    sortKey: s('sk'),
    ttlAttribute: 'expiresAt',
  },
  deadLetters: {
    name: 'dead-letters',
    description: 'Tracker messages that could not be decoded, with the reason.',
    partitionKey: s('day'),
    sortKey: s('receivedAtId'),
    ttlAttribute: 'expiresAt',
  },
  // The trip log (functions/trips, docs/decisions/0015-trip-log.md).
  trips: {
    name: 'trips',
    description:
      "Trips per unit by start time (a unit's period is one Query): detected at ingest, edited, merged (with the joined trips' own records for split), locked by an attestation; expire with the account retention.",
    partitionKey: s('imei'),
    sortKey: n('startTs'),
    ttlAttribute: 'expiresAt',
  },
  // What the fleet overview sums (docs/decisions/0032-fleet-overview.md): per account, one item per
  // quarter hour (`q#<bucket start ms>`) and per month (`m#<yyyy-MM>`, Stockholm time) with an
  // attribute per unit (`u<imei>`) that had trips starting then, recomputed from the trips table
  // after each trip write; a week of a 1,000-unit fleet is one Query of a few hundred items.
  tripRollups: {
    name: 'trip-rollups',
    description:
      "Per account, the trips and distance of each unit per quarter hour of the trips' start (`q#<ms>`) and the trips and first and last local day per month (`m#<yyyy-MM>`), recomputed from trips on every trip write; expire after weeks (quarters) or a year (months).",
    partitionKey: s('accountId'),
    sortKey: s('sk'),
    ttlAttribute: 'expiresAt',
  },
  // What the reports sum (docs/decisions/0036-day-rollups.md): per unit of an account (`unit` =
  // `<accountId>#<imei>`, an IMEI outlives a registration) one item per local day (Stockholm) with
  // the figures of the trips starting that day, recomputed from the trips through the
  // unit-day-rollup queue after every trip write. `byDay` lists the units with an item on a day, for
  // the nightly re-derivation.
  unitDays: {
    name: 'unit-days',
    description:
      "Per unit of an account and local day (Europe/Stockholm) of a trip's start: trips, distance, per type, per driver and per project, times in motion and idling, top speed, first start, last stop, the raw counters and the eco counts; recomputed from trips (and their eco events) after every trip write and eco event, guarded by a generation.",
    partitionKey: s('unit'),
    sortKey: s('day'),
    indexes: [{ name: 'byDay', partitionKey: s('day'), sortKey: s('unit') }],
    ttlAttribute: 'expiresAt',
  },
  odometerEntries: {
    name: 'odometer-entries',
    description: "Odometer readings a user entered per unit (time, km) with the unit's trip counter at that time; they correct later trips' odometers.",
    partitionKey: s('imei'),
    sortKey: n('atTs'),
  },
  driverCheckIns: {
    name: 'driver-check-ins',
    description: "Driver check-ins per unit: who drives from when (the history), and the QR check-in secret.",
    partitionKey: s('imei'),
    sortKey: n('fromTs'),
  },
  attestations: {
    name: 'attestations',
    description:
      "Attestations of trip logs per account (sort key starts with the period's first day), by user and by unit through indexes; also the reminder claims that make a reminder e-mail go out once.",
    partitionKey: s('accountId'),
    sortKey: s('id'),
    indexes: [
      { name: 'byUser', partitionKey: s('userKey'), sortKey: s('id') },
      { name: 'byUnit', partitionKey: s('imei'), sortKey: s('id') },
    ],
    ttlAttribute: 'expiresAt',
  },
  // Geofences, places, events and alarms (docs/decisions/0017-events-and-alarms.md).
  geofences: {
    name: 'geofences',
    description: "Geofences per account; each unit assigned one also carries a copy on its units item (zones) for the event engine.",
    partitionKey: s('accountId'),
    sortKey: s('id'),
  },
  unitCopies: {
    name: 'unit-copies',
    description: "Per unit, the copies of its geofences (zones) and places that ingest reads with the unit; kept out of the units item, which every position's transition rewrites.",
    partitionKey: s('imei'),
  },
  // The unit editor's larger, rarely changed texts (docs/decisions/0018-unit-editor.md).
  unitDetails: {
    name: 'unit-details',
    description: "Per unit, the editor's object description, theft info and name history (last 50), with the owner account; kept out of the units item, which every position's transition rewrites.",
    partitionKey: s('imei'),
  },
  places: {
    name: 'places',
    description: "Places per account with their trip categorisation rule; each assigned unit carries a copy (places) for trip detection.",
    partitionKey: s('accountId'),
    sortKey: s('id'),
  },
  alarmReceivers: {
    name: 'alarm-receivers',
    description: 'Who gets a unit\'s alarms and how (e-mail, SMS, push), per account, with the units they are assigned.',
    partitionKey: s('accountId'),
    sortKey: s('id'),
  },
  events: {
    name: 'events',
    description: "Events the event engine raised (geofence enter and exit, overspeed, low battery, ...) per unit by time, and per account through an index; expire with the account retention.",
    partitionKey: s('imei'),
    sortKey: s('sk'),
    indexes: [{ name: 'byAccount', partitionKey: s('accountId'), sortKey: s('sk') }],
    ttlAttribute: 'expiresAt',
  },
  // RFID cards and readers (functions/rfid, docs/decisions/0022-rfid.md).
  rfidCards: {
    name: 'rfid-cards',
    description:
      "Per account (sort key `card#<id>`, `reader#<id>`, `read#<id>`): RFID cards with their linked user and paired reader unit, the readers' claims on their unit, and card reads of unknown cards.",
    partitionKey: s('accountId'),
    sortKey: s('sk'),
  },
  // BLE sensors (functions/sensors, docs/decisions/0020-ble-sensors.md).
  sensors: {
    name: 'sensors',
    description:
      "BLE sensors per GPS unit (sort key: the sensor id, which sorts by creation): MAC, name, kind, thresholds and pairing state; each has a copy (sensors) in the unit's unit-copies item for ingest.",
    partitionKey: s('imei'),
    sortKey: s('id'),
  },
  sensorMacs: {
    name: 'sensor-macs',
    description: 'One claim per BLE sensor MAC (12 upper-case hex digits) across all accounts: a sensor is paired with one unit at a time.',
    partitionKey: s('mac'),
  },
  alertDeliveries: {
    name: 'alert-deliveries',
    description: 'One claim per event, receiver and channel: an alarm message is sent once however often its delivery is retried.',
    partitionKey: s('id'),
    ttlAttribute: 'expiresAt',
  },
  // A unit's access lock (docs/decisions/0021-access-lock-and-add-unit.md).
  lockLog: {
    name: 'lock-log',
    description: "Every lock and unlock of a unit's access (who, when, by support), per unit by time; the account it happened in is on each entry.",
    partitionKey: s('imei'),
    sortKey: s('sk'),
  },
  // Pictures of a unit (docs/decisions/0019-unit-pictures.md): one item per picture slot (1..5), so
  // that a conditional put on a free slot is the 5-per-unit limit; an upload under way expires.
  unitImages: {
    name: 'unit-images',
    description: "A unit's picture slots (1..5): the picture's id, file key, type, size, state (pending while uploading, ready once its bytes were checked) and owner account.",
    partitionKey: s('imei'),
    sortKey: n('slot'),
    ttlAttribute: 'expiresAt',
  },
  // Operating-hours readings per unit (docs/decisions/0027-odometer-and-operating-hours.md).
  operatingHoursEntries: {
    name: 'operating-hours-entries',
    description: "Operating-hours readings a user entered per unit (time, hours) with the tracker's engine-seconds counter at that time; the hours shown afterwards count on from the latest.",
    partitionKey: s('imei'),
    sortKey: n('atTs'),
  },
  // Departments, tags, projects and their name claims (functions/organisation, docs/decisions/0026-organisation-profiles-support.md).
  organisation: {
    name: 'organisation',
    description:
      "Per account (sort key `department#<id>`, `tag#<id>`, `project#<id>`): the named list items; `name#<kind>#<normalised name>` claims a name, so two creates of one name cannot both win. Feature profile names are claimed here too (`name#profile#...`).",
    partitionKey: s('accountId'),
    sortKey: s('sk'),
  },
  // What support staff did (functions/support).
  supportLog: {
    name: 'support-log',
    description: 'Every support action (who, when, what, which account), by UTC month (yyyy-MM) and time.',
    partitionKey: s('month'),
    sortKey: s('sk'),
  },
  outbox: {
    name: 'outbox',
    description: 'E-mail, SMS and push messages sent by the embedded runtime instead of SES/SNS.',
    partitionKey: s('kind'),
    sortKey: s('sentAtId'),
    indexes: [{ name: 'byRecipient', partitionKey: s('to'), sortKey: s('sentAtId') }],
    ttlAttribute: 'expiresAt',
    embeddedOnly: true,
  },
  // Safe return home (docs/decisions/0024-safe-return-home.md): one item per unit; while on, the
  // sparse `due` index holds it under a bucket by the next check's time, so the job finds what is
  // due with a Query per bucket instead of a Scan.
  safeHome: {
    name: 'safe-home',
    description: "Per unit: the safe return home's status, home (address, centre, radius), weekly schedule, frequency, start date and zone; while on, its next check (nextDueAt) in the due index.",
    partitionKey: s('imei'),
    indexes: [
      { name: 'byAccount', partitionKey: s('accountId'), sortKey: s('imei') },
      { name: 'due', partitionKey: s('dueBucket'), sortKey: n('nextDueAt') },
    ],
  },
  // Car booking (docs/decisions/0023-car-booking.md): per vehicle (`unit#<imei>`) its bookings by
  // start (`at#<start ms>#<id>`) and a `lock` item whose version every booking write raises; per
  // booking (`booking#<id>`) where it is. The sparse byDriver index holds the bookings only.
  bookings: {
    name: 'bookings',
    description: "Car bookings: per vehicle its bookings by start time and the version that makes overlapping saves exclusive; per booking id its vehicle and slot.",
    partitionKey: s('pk'),
    sortKey: s('sk'),
    indexes: [{ name: 'byDriver', partitionKey: s('driverId'), sortKey: n('startTs') }],
  },
  // Report exports (docs/decisions/0037-report-jobs-and-schedules.md): per user, the export jobs
  // (`job#<id>`, ids sort by creation, so the newest are one Query backwards) and the claims that
  // make an identical request answer the running job (`request#<hash>`); both expire after 30 days.
  reportJobs: {
    name: 'report-jobs',
    description:
      "Per user: report export jobs (`job#<id>`: request, format, status, progress, file key, error key) and the claim of each request hash naming its latest job (`request#<hash>`); expire after 30 days.",
    partitionKey: s('userId'),
    sortKey: s('sk'),
    ttlAttribute: 'expiresAt',
  },
  // Scheduled reports: per owner (`user#<id>`) the schedules (`schedule#<id>`), in the sparse `due`
  // index by their next run while they have one; beside them the claims that make each e-mail go out
  // once (`sent#<schedule>#<period>` per recipient, `reminder#<month>` per driver) and the monthly
  // reminder's checkpoint.
  reportSchedules: {
    name: 'report-schedules',
    description:
      "Report schedules per owner (`user#<userId>`, `schedule#<id>`: request, format, every, recipients, language, zone, next run in the due index), and the claims of sent e-mails (schedule and period per recipient, attestation reminders per month and driver); claims expire.",
    partitionKey: s('pk'),
    sortKey: s('sk'),
    indexes: [{ name: 'due', partitionKey: s('dueBucket'), sortKey: n('nextDueAt') }],
    ttlAttribute: 'expiresAt',
  },
  // Autoplan (docs/decisions/0039-autoplan.md): per vehicle (`unit#<accountId>#<imei>`) each month's
  // report (`month#<yyyy-MM>`), claimed with a conditional write before Autoplan is called, so a
  // month is reported once; the accounts that report automatically (`automatic`, sort key the
  // account id), which the monthly job lists with one Query; and the job's run per account and month.
  autoplanReports: {
    name: 'autoplan-reports',
    description:
      "Autoplan: per vehicle and month the report's claim, then its figures and Autoplan's receipt; the accounts that report automatically; the monthly job's progress per account and month.",
    partitionKey: s('pk'),
    sortKey: s('sk'),
  },
  // Congestion tax passages (docs/decisions/0038-congestion-control-points.md): per unit of an
  // account (`<accountId>#<imei>`) one item per passage of a control line, sorted by its ISO time
  // and station (`<iso>#<stationId>`), written by the passage stage at ingest and read by the
  // congestion report; priced when the report is built.
  passages: {
    name: 'passages',
    description:
      "Congestion tax passages per unit of an account (`pk` = `<accountId>#<imei>`, `sk` = `<ISO time>#<stationId>`): city, station, direction, uncertain, Essingeleden or Backa, where the step crossed; detected at ingest, priced by the report.",
    partitionKey: s('pk'),
    sortKey: s('sk'),
  },
  // Webhooks (docs/decisions/0046-webhooks.md): per account (`accountId`) its subscriptions
  // (`hook#<id>`), their count (`count`, the limit's condition), their deliveries
  // (`delivery#<id>`, kept 30 days) and the claims of the pause e-mails (`pausemail#...`). The
  // sparse `byHook` index lists a subscription's deliveries newest first; the sparse `watching`
  // index lists the active subscriptions to unitOffline for the job that looks for silent units.
  webhooks: {
    name: 'webhooks',
    description:
      "Webhooks per account: subscriptions (url, events, active or paused, the signing secret), their count, their deliveries (status, attempts, last answer; expire after 30 days) and the pause e-mails' claims.",
    partitionKey: s('accountId'),
    sortKey: s('sk'),
    indexes: [
      { name: 'byHook', partitionKey: s('deliveryHook'), sortKey: s('deliveryOrder') },
      { name: 'watching', partitionKey: s('watch'), sortKey: s('watchKey') },
    ],
    ttlAttribute: 'expiresAt',
  },
  // Exactly-once writes (shared/idempotency.ts, docs/decisions/0047): per account and
  // Idempotency-Key (`<accountId>#<key>`) the request's fingerprint and, once applied, the answer
  // that a repeat of the request gets; kept 24 hours.
  idempotency: {
    name: 'idempotency',
    description:
      'Idempotency keys per account (`key` = `<accountId>#<Idempotency-Key>`): the request fingerprint, a claim while it is applied, then the stored answer (status, body) replays get; expires after 24 hours.',
    partitionKey: s('key'),
    ttlAttribute: 'expiresAt',
  },
  // Web Push (docs/decisions/0048-web-push.md): one item per subscribed browser, keyed by a hash of
  // its endpoint, so that a browser is subscribed for one user at a time (the last who registered on
  // it); per user through `byUser` (delivery, the user's list), per account through `byAccount`
  // (which members have a push id, for the alarm receivers).
  pushSubscriptions: {
    name: 'push-subscriptions',
    description:
      "Web Push subscriptions: `id` = base64url SHA-256 of the endpoint; userId, accountId, endpoint, keys p256dh and auth, createdAt; per user (`byUser`, by createdAt) and per account (`byAccount`, by userId).",
    partitionKey: s('id'),
    indexes: [
      { name: 'byUser', partitionKey: s('userId'), sortKey: s('createdAt') },
      { name: 'byAccount', partitionKey: s('accountId'), sortKey: s('userId') },
    ],
  },
  // API keys (docs/decisions/0045-api-keys-and-typed-client.md): per account (`account#<accountId>`)
  // each key (`key#<id>`: name, scopes, prefix, SHA-256, created, last used, revoked) and the count of
  // active keys (`count`); per key hash (`hash#<sha256>`, sort key `hash`) what a call with the key
  // resolves to, deleted when the key is revoked. The key itself is never stored.
  apiKeys: {
    name: 'api-keys',
    description:
      "API keys per account (`account#<accountId>`: `key#<id>` name, scopes, prefix, SHA-256, created, last used, revoked; `count` of active keys) and per key hash (`hash#<sha256>`) the key's account and scopes while it is active.",
    partitionKey: s('pk'),
    sortKey: s('sk'),
  },
  // The call log of API keys: per key (`keyId`) each call by time (`<ISO time>#<random>`): operation,
  // method, path, status, client address; expires after 90 days.
  apiKeyCalls: {
    name: 'api-key-calls',
    description: "Calls made with an API key, per key by time: operation, method, path, status and client address; expire after 90 days.",
    partitionKey: s('keyId'),
    sortKey: s('sk'),
    ttlAttribute: 'expiresAt',
  },
} as const satisfies Record<string, TableDef>;

export type TableKey = keyof typeof tables;

export const tableList: readonly TableDef[] = Object.values(tables);

/** Tables are named `<prefix><name>`; the prefix is the stack name on AWS and `local-` embedded. */
export function physicalTableName(prefix: string, table: TableDef): string {
  return `${prefix}${table.name}`;
}
