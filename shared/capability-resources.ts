/**
 * What each deployed function may touch besides its own logs: the tables (read, or read and
 * write) and the other resources its handlers reach through the ports. One entry per function,
 * beside the route manifest whose capabilities they are. The CDK stack turns an entry into both
 * the function's environment (the table names its handlers look up) and its IAM grants, in one
 * place; a table missing here is neither named to the function nor granted to it.
 *
 * The stack also reads the function's bundle and refuses to synthesize when its code uses a
 * table or a port operation the entry does not declare; the contract test also fails on what is
 * declared but unused. docs/decisions/0013-resource-grants.md has the rules.
 *
 * Beside the grants, `functionSettings` holds each function's memory and timeout (the defaults
 * unless its entry says otherwise), checked against what Lambda and the function's caller allow.
 */
import { queueList, type QueueName } from './queues';
import type { Capability } from './routes';
import type { TableKey } from './tables';

export type TableAccess = 'read' | 'read-write';

/**
 * IdentityProvider operations that need a permission. `verifyAccessToken` checks signatures
 * against the pool's public keys and `revoke` is an API Cognito does not authorize with IAM, so
 * neither appears here.
 */
export const identityOperations = ['createUser', 'authenticate', 'refresh', 'setPassword', 'signOutEverywhere', 'deleteUser'] as const;
export type IdentityOperation = (typeof identityOperations)[number];

export const geocoderOperations = ['reverse', 'search'] as const;
export type GeocoderOperation = (typeof geocoderOperations)[number];

/**
 * FileStore operations (functions/platform/ports.ts), each a permission on the files bucket:
 * `createUpload` signs a PUT to `pending/`, `readHead` reads a file's first bytes and size,
 * `move` copies a checked upload out of `pending/` and deletes it there, `viewUrl` signs a GET,
 * `delete` removes a file, `writeStream` writes a report export to `reports/` (in parts).
 */
export const fileOperations = ['createUpload', 'readHead', 'move', 'viewUrl', 'delete', 'writeStream'] as const;
export type FileOperation = (typeof fileOperations)[number];
/** The files a function's FileStore operations reach: unit pictures (`pending/`, `units/`) or report exports (`reports/`). */
export type FileArea = 'pictures' | 'reports';

export interface FunctionResources {
  readonly tables: Readonly<Partial<Record<TableKey, TableAccess>>>;
  /** Mailer.send: e-mail from MAIL_FROM. */
  readonly mail?: true;
  /** SmsSender.send: a text message to a phone number. */
  readonly sms?: true;
  readonly geocoder?: readonly GeocoderOperation[];
  readonly identity?: readonly IdentityOperation[];
  /** LiveBus.publish: the browsers' live topics. */
  readonly live?: true;
  /** DeviceGateway.send: commands to trackers. */
  readonly devices?: true;
  /** AlertQueue.enqueue: alarms onto the alert-delivery queue of shared/queues.ts. */
  readonly alerts?: true;
  /** WorkQueues.send: messages onto these queues of shared/queues.ts (QUEUE_URLS). */
  readonly queues?: readonly QueueName[];
  /** FileStore operations on the files bucket (FILES_BUCKET), in `fileArea`. */
  readonly files?: readonly FileOperation[];
  /** Which keys the file operations reach (infra/constructs/resource-grants.ts); default pictures. */
  readonly fileArea?: FileArea;
  /**
   * Tables of `tables` the function may Scan whole (dynamodb:Scan on the table, not its indexes):
   * one-off migrations, and the monthly walk over the accounts' ids (docs/decisions/0037); never a
   * request path (docs/decisions/0013-resource-grants.md).
   */
  readonly scans?: readonly TableKey[];
  /** Autoplan.report: reads the accounts' Autoplan secrets (endpoint and credentials) under the stack's prefix. */
  readonly autoplan?: true;
  /** WebPush.publicKey and WebPush.send: reads the seed secret of the VAPID keys (docs/decisions/0048-web-push.md). */
  readonly webPush?: true;
}

/** The IoT Core custom authorizer of the live channel: a function of its own, outside the HTTP API. */
export const LIVE_AUTHORIZER = 'live-authorizer';
/**
 * On AWS: reads the ingest failure queue (IoT rule errors, ingest batches that spent their
 * retries) into the dead-letters table (functions/ingest/record-failures.ts). The embedded
 * runtime writes those letters directly and has no such function.
 */
export const INGEST_FAILURES = 'ingest-failures';

/**
 * What building a report reads (functions/reports/build.ts): the caller, the account's features and
 * profiles, the units, trips, day rollups, odometer entries and attestations, the departments' names (the
 * environmental report), for the theft report the unit's details, positions, events and commands,
 * and for the congestion report its passages. The odometer module hands its table to the readings
 * helper, which the bundle reader counts as a write (infra/bundling/resource-usage.ts errs towards
 * the larger grant), so that one is read-write though only read.
 */
const reportReads = {
  users: 'read',
  accounts: 'read',
  units: 'read',
  unitDetails: 'read',
  trips: 'read',
  unitDays: 'read',
  odometerEntries: 'read-write',
  attestations: 'read',
  positions: 'read',
  events: 'read',
  commands: 'read',
  organisation: 'read',
  passages: 'read',
} as const satisfies Partial<Record<TableKey, TableAccess>>;

/**
 * Consumes the alert queue: delivers each alarm to its unit's alarm receivers by e-mail, SMS and
 * push (functions/events/alert-delivery.ts). Every queue of shared/queues.ts has a consumer
 * function of its name; the embedded runtime runs the same consumers in process.
 */
export const ALERT_DELIVERY_FUNCTION = 'alert-delivery' satisfies QueueName;
export type FunctionName = Capability | typeof LIVE_AUTHORIZER | typeof INGEST_FAILURES | QueueName;

// A function serving a route open to API keys (RouteDef.apiKeyScope): the middleware reads the key's
// hash item and moves its last use on (apiKeys), writes its call log (apiKeyCalls) and counts its
// rate limit (rateLimits); docs/decisions/0045-api-keys-and-typed-client.md.
const apiKeyCallers = { apiKeys: 'read-write', apiKeyCalls: 'read-write', rateLimits: 'read-write' } as const satisfies Partial<Record<TableKey, TableAccess>>;

// The shared HTTP middleware reads the session (tokens) and the user (users) for every route that
// is not public, so each function serving such a route declares both. It also reads the account
// (accounts) for a route that names a feature (RouteDef.feature); the bundle cannot tell which
// routes do, so each of those functions declares accounts read as well.
export const functionResources: Readonly<Partial<Record<FunctionName, FunctionResources>>> = {
  // The alert opt-out's remove_push also unsubscribes the user's browsers (pushSubscriptions).
  auth: {
    tables: { users: 'read-write', tokens: 'read-write', uniques: 'read', accounts: 'read', rateLimits: 'read-write', pushSubscriptions: 'read-write' },
    mail: true,
    identity: ['authenticate', 'refresh', 'setPassword', 'signOutEverywhere'],
  },
  // Public routes only: no session to read, and no password reset, SMS or device command.
  registration: {
    tables: { inventory: 'read-write', uniques: 'read-write', accounts: 'read-write', users: 'read-write', units: 'read-write', rateLimits: 'read-write' },
    mail: true,
    identity: ['createUser', 'deleteUser'],
  },
  content: {
    tables: { announcements: 'read' },
  },
  // Web vitals (functions/vitals): the browsers' reports, open before login and limited per
  // client (rateLimits); support's percentiles (the middleware's session, user and account reads).
  vitals: {
    tables: { webVitals: 'read-write', rateLimits: 'read-write', users: 'read', tokens: 'read', accounts: 'read' },
  },
  // The fleet overview (functions/tracking/get-fleet-overview.ts) also sums the trip rollups and
  // reads the account's attestations and alarms.
  tracking: {
    tables: { ...apiKeyCallers, users: 'read', tokens: 'read', accounts: 'read', units: 'read', positions: 'read', tripRollups: 'read', attestations: 'read', events: 'read' },
    geocoder: ['reverse'],
  },
  live: {
    tables: { users: 'read', tokens: 'read', accounts: 'read' },
  },
  // Commands; the access lock and its log (an unlock by support e-mails the locker); adding a unit
  // from the inventory (the IMEI claim, the inventory item, the grants on the users).
  units: {
    tables: {
      ...apiKeyCallers,
      users: 'read-write',
      tokens: 'read',
      accounts: 'read',
      units: 'read-write',
      commands: 'read-write',
      lockLog: 'read-write',
      inventory: 'read-write',
      uniques: 'read-write',
      unitImages: 'read-write',
      // The unit editor's object description, theft info and name history.
      unitDetails: 'read-write',
      // Bulk unit tasks add units to alarm receivers (functions/units/bulk-units-service.ts), through
      // the receivers' assignment, which reads the units' BLE sensors beside them (unit-copies).
      alarmReceivers: 'read-write',
      unitCopies: 'read-write',
      // Odometer and operating-hours readings (docs/decisions/0027): the entries, the trips and
      // positions whose counters they keep, and the copy of the latest in unit-copies.
      odometerEntries: 'read-write',
      operatingHoursEntries: 'read-write',
      trips: 'read',
      positions: 'read',
      // The units list shows departments and tags by their names (functions/organisation).
      organisation: 'read',
    },
    mail: true,
    live: true,
    devices: true,
    // Unit pictures (functions/units/images): uploads to pending/, checked, moved, shown and deleted.
    files: ['createUpload', 'readHead', 'move', 'viewUrl', 'delete'],
  },
  // The trip stage stores detected trips (functions/trips/store-detected.ts): trips and the driver
  // checked in at a trip's start. The event engine stores events, hands alarms
  // to the alert queue and switches a unit leaving its theft-mode zone to theft mode (a command).
  ingest: {
    tables: {
      accounts: 'read',
      inventory: 'read',
      units: 'read-write',
      positions: 'read-write',
      commands: 'read-write',
      deadLetters: 'read-write',
      trips: 'read-write',
      tripRollups: 'read-write',
      unitDays: 'read-write',
      driverCheckIns: 'read-write',
      events: 'read-write',
      unitCopies: 'read',
      sensors: 'read-write',
      sensorMacs: 'read',
      // An RFID card read checks the card's owner in as the driver (functions/rfid/read-effect.ts):
      // the card, the owner (users), the check-in; an unknown card's read is noted.
      rfidCards: 'read-write',
      users: 'read',
      // Congestion tax passages (functions/congestion/passage-stage.ts); a late window's re-detection deletes what it no longer finds.
      passages: 'read-write',
      // Webhook events (functions/webhooks/emit.ts): the account's subscriptions, read once a minute at most.
      webhooks: 'read',
    },
    live: true,
    // Trip addresses, re-detection and the day rollups go to their queues (shared/queues.ts), out of
    // the ingest batch; alarms, geofence events, closed trips and command answers to the webhooks'.
    queues: ['trip-redetect', 'unit-day-rollup', 'webhook-delivery'],
    alerts: true,
    devices: true,
  },
  // The trip log: the unit's driver on check-in (units), the route (positions), account settings,
  // drivers' names and e-mails of reminders (users); the addresses of trips shown for the first
  // time (functions/trips/trip-addresses.ts), what a list's time leaves queued.
  trips: {
    tables: {
      ...apiKeyCallers,
      users: 'read',
      tokens: 'read',
      accounts: 'read',
      units: 'read-write',
      positions: 'read',
      trips: 'read-write',
      tripRollups: 'read-write',
      // Every trip write announces its days' rollups (functions/trips/unit-days.ts) and queues them.
      unitDays: 'read-write',
      odometerEntries: 'read-write',
      driverCheckIns: 'read-write',
      attestations: 'read-write',
      // The copy of the latest odometer entry that ingest reads (docs/decisions/0027).
      unitCopies: 'read-write',
      // A trip's congestion tax passages (get-trip-passages.ts).
      passages: 'read',
      // Idempotency-Key answers of trip edits and check-ins (functions/platform/idempotency.ts).
      idempotency: 'read-write',
    },
    mail: true,
    geocoder: ['reverse'],
    queues: ['unit-day-rollup', 'trip-addresses'],
  },
  // Reports (functions/reports/build.ts, reportReads above) and exports (docs/decisions/0037): the
  // caller's jobs and request claims, the report-export queue, the portal link's signed URL, and
  // expired files removed on read; the caller's report schedules.
  // Autoplan (docs/decisions/0039-autoplan.md): the month claims and the accounts' setting, the
  // month rollup and odometer entries (reportReads), the account's zone, and Autoplan itself.
  // The trip log's addresses of trips reported for the first time (functions/trips/trip-addresses.ts).
  reports: {
    tables: { ...apiKeyCallers, ...reportReads, trips: 'read-write', tokens: 'read', reportJobs: 'read-write', reportSchedules: 'read-write', autoplanReports: 'read-write' },
    geocoder: ['reverse'],
    queues: ['report-export', 'trip-addresses'],
    files: ['viewUrl', 'delete'],
    fileArea: 'reports',
    autoplan: true,
  },
  // Geofences write their copies onto the assigned units (zones) in the transaction that saves them.
  geofences: {
    tables: { ...apiKeyCallers, users: 'read', tokens: 'read', accounts: 'read', units: 'read', unitCopies: 'read-write', geofences: 'read-write' },
    geocoder: ['search'],
  },
  // Places write their rules onto the assigned units (places) and re-apply them to unattested trips
  // (a trip's own attestationId says it is attested); the address search is the geofences' route.
  // A trip's type is in the rollups: applying a rule refreshes them like any trip write (functions/trips/unit-days.ts).
  places: {
    tables: { users: 'read', tokens: 'read', accounts: 'read', units: 'read', unitCopies: 'read-write', places: 'read-write', trips: 'read-write', tripRollups: 'read-write', unitDays: 'read-write' },
    queues: ['unit-day-rollup'],
  },
  // Alarm receivers, the units and BLE sensors (their copies beside the units) they get alarms of, and the account's alert language, time zone and SMS credits.
  // Which members have a push id: their subscribed browsers (pushSubscriptions).
  alarms: {
    tables: { users: 'read', tokens: 'read', accounts: 'read-write', units: 'read', unitCopies: 'read', alarmReceivers: 'read-write', pushSubscriptions: 'read' },
  },
  // Web Push (docs/decisions/0048-web-push.md): the users' subscribed browsers and the VAPID public key.
  push: {
    tables: { users: 'read', tokens: 'read', accounts: 'read', pushSubscriptions: 'read-write' },
    webPush: true,
  },
  // BLE sensors: the sensor, its MAC's claim and its copy beside the unit in one transaction; pairing
  // and unpairing go through the command service (the unit's open command, the commands table).
  sensors: {
    tables: { users: 'read', tokens: 'read', accounts: 'read', units: 'read-write', commands: 'read-write', unitCopies: 'read-write', sensors: 'read-write', sensorMacs: 'read-write' },
    live: true,
    devices: true,
  },
  // RFID cards, their readers' claims and owners (users); pairing goes through the command service.
  rfid: {
    tables: { users: 'read', tokens: 'read', accounts: 'read', units: 'read-write', commands: 'read-write', rfidCards: 'read-write' },
    live: true,
    devices: true,
  },
  // The events the engine raised, per unit and per account.
  events: {
    tables: { ...apiKeyCallers, users: 'read', tokens: 'read', accounts: 'read', units: 'read', events: 'read' },
  },
  // command-timeouts; safe-home-checks (functions/safe-home/checks.ts) reads the due items, advances
  // them and records 'not home' events (the account's retention), alarmed through the alert queue;
  // trip-rollup-backfill scans the trips, times those detected before trips were timed (their
  // positions) and writes their rollups, day rollups and its marker; unit-day-rederive lists the
  // last days' unit-day items (their byDay index) and queues their recomputation.
  // report-schedules starts the due schedules' exports (their jobs, the report-export queue);
  // attestation-reminders walks last month's unit months (the unit-days byDay index, no Scan), their
  // units and trips and their accounts' users, and e-mails drivers once (claims in report-schedules).
  jobs: {
    tables: {
      commands: 'read-write',
      units: 'read',
      safeHome: 'read-write',
      events: 'read-write',
      accounts: 'read',
      // The units' detection settings, read with their copies (functions/domain/unit/reads.ts).
      unitCopies: 'read',
      trips: 'read-write',
      positions: 'read',
      tripRollups: 'read-write',
      unitDays: 'read-write',
      users: 'read',
      reportJobs: 'read-write',
      reportSchedules: 'read-write',
      // autoplan-reports (docs/decisions/0039-autoplan.md): the opted-in accounts, their vehicles'
      // month claims and rollups (with the odometer entries), the admins' e-mails claimed once.
      autoplanReports: 'read-write',
      odometerEntries: 'read-write',
      // unit-offline-checks: the subscriptions to unitOffline (the webhooks' watching index); a
      // 'not home' alarm of safe-home-checks goes to the webhooks too (functions/webhooks/emit.ts).
      webhooks: 'read',
    },
    scans: ['trips'],
    live: true,
    alerts: true,
    mail: true,
    queues: ['unit-day-rollup', 'report-export', 'webhook-delivery'],
    autoplan: true,
  },
  // The account administration: users with their claims and identities, their grants and the units'
  // viewers in one transaction, the welcome e-mail's single-use code (tokens), sessions ended on a new
  // password, access changes told on the user's live topic, and the account's settings.
  administration: {
    tables: { users: 'read-write', tokens: 'read-write', accounts: 'read-write', uniques: 'read-write', units: 'read-write' },
    mail: true,
    live: true,
    identity: ['createUser', 'setPassword', 'signOutEverywhere', 'deleteUser'],
  },
  // Departments, tags, projects (and their claims), assigned on units and users; feature profiles on the accounts item.
  organisation: {
    tables: { users: 'read-write', tokens: 'read', accounts: 'read-write', units: 'read-write', organisation: 'read-write' },
  },
  // Support: account search (accounts' indexes, the e-mail claims, units), unlocks through the lock
  // service (an e-mail to the locker), the announcement texts, the support log, and the account's
  // settings that are support's (basic-only, SMS credits) and its units' subscription type and
  // report frequency lock; the account's department and tag names, which a search of its units matches.
  support: {
    tables: { users: 'read', tokens: 'read', accounts: 'read-write', uniques: 'read', units: 'read-write', lockLog: 'read-write', announcements: 'read-write', supportLog: 'read-write', organisation: 'read' },
    mail: true,
  },
  // API keys (functions/api-keys): the account's keys, their hash items and count, and their call logs;
  // the published OpenAPI document reads nothing.
  'api-keys': {
    tables: { users: 'read', tokens: 'read', accounts: 'read', apiKeys: 'read-write', apiKeyCalls: 'read' },
  },
  // Marks the accounts it grants as watched (functions/domain/account/live-watch.ts).
  [LIVE_AUTHORIZER]: {
    tables: { users: 'read', tokens: 'read', accounts: 'read-write' },
  },
  // Safe return home: the account's units and their items; the home's address must geocode.
  'safe-home': {
    tables: { users: 'read', tokens: 'read', accounts: 'read', units: 'read', safeHome: 'read-write' },
    geocoder: ['search'],
  },
  // Consuming its queue is granted by infra/constructs/work-queues.ts. Push goes to OneSignal over HTTPS (no IAM)
  // and to the browsers' push services with the VAPID keys (webPush); a browser whose service answers 410 is unsubscribed.
  [ALERT_DELIVERY_FUNCTION]: {
    tables: { events: 'read', accounts: 'read-write', users: 'read', alarmReceivers: 'read', alertDeliveries: 'read-write', pushSubscriptions: 'read-write' },
    mail: true,
    sms: true,
    geocoder: ['reverse'],
    webPush: true,
  },
  // The trip-addresses queue's consumer (functions/trips/trip-addresses.ts): a stored trip's addresses.
  'trip-addresses': {
    tables: { trips: 'read-write' },
    geocoder: ['reverse'],
  },
  // The trip-redetect queue's consumer (functions/trips/trip-redetect.ts): what the trip stage's
  // re-detection read and wrote inside ingest before (the unit with its place copies, whose rules
  // type a new trip), the addresses of the trips it writes, and their tripClosed to the webhooks.
  'trip-redetect': {
    tables: { accounts: 'read', units: 'read', unitCopies: 'read', positions: 'read', trips: 'read-write', tripRollups: 'read-write', unitDays: 'read-write', driverCheckIns: 'read', webhooks: 'read' },
    queues: ['unit-day-rollup', 'webhook-delivery'],
  },
  // The unit-day-rollup queue's consumer (functions/trips/unit-day-rollup.ts): a unit's days from its trips and eco events.
  'unit-day-rollup': {
    tables: { trips: 'read', events: 'read', unitDays: 'read-write' },
  },
  // The report-export queue's consumer (functions/reports/export-consumer.ts): the report built as
  // its owner (reportReads), the job, the file streamed to reports/, and a schedule's e-mails with
  // their claims.
  'report-export': {
    tables: { ...reportReads, trips: 'read-write', reportJobs: 'read-write', reportSchedules: 'read-write' },
    geocoder: ['reverse'],
    queues: ['trip-addresses'],
    mail: true,
    files: ['writeStream'],
    fileArea: 'reports',
  },
  // Reading the stream back and consuming its queue are granted by infra/constructs/ingest.ts.
  [INGEST_FAILURES]: {
    tables: { deadLetters: 'read-write' },
  },
  // Webhooks (functions/webhooks, docs/decisions/0046-webhooks.md): the account's subscriptions and
  // their delivery log; the test button queues a sample delivery.
  webhooks: {
    tables: { users: 'read', tokens: 'read', accounts: 'read', webhooks: 'read-write' },
    queues: ['webhook-delivery'],
  },
  // The webhook-delivery queue's consumer (functions/webhooks/delivery-consumer.ts): the delivery
  // and its subscription, the next attempt queued, and the pause e-mail to the account's admins.
  'webhook-delivery': {
    tables: { webhooks: 'read-write', users: 'read' },
    mail: true,
    queues: ['webhook-delivery'],
  },
  // Car booking: the vehicles (units, their model from unit-details), the drivers (users) and bookings.
  bookings: {
    tables: { users: 'read', tokens: 'read', accounts: 'read', units: 'read', unitDetails: 'read', bookings: 'read-write' },
  },
};

/**
 * Memory and timeout of one function. What an entry leaves out is the default; an entry is checked
 * by `resolveFunctionSettings` when the stack builds the function (and by test/infra).
 */
export interface FunctionSettings {
  /** MB, an integer from 128 to 10240 (Lambda's limits); CPU grows with it. */
  readonly memorySize?: number;
  /** Seconds, an integer from 1 to the limit of the function's caller (`TIMEOUT_LIMITS`). */
  readonly timeoutSeconds?: number;
}

export const FUNCTION_SETTING_DEFAULTS = { memorySize: 512, timeoutSeconds: 10 } as const;

/** Lambda's own bounds on memory. */
export const MEMORY_LIMITS = { min: 128, max: 10_240 } as const;

/**
 * Who calls a function decides the longest timeout that is of any use:
 * - `http`: API Gateway's HTTP API gives an integration at most 30 s (CloudFront's origin waits
 *   30 s too), then answers 503 while the function runs on. At 29 s the function gives up first,
 *   and the timeout is in its own log rather than a gateway error with no trace.
 * - `authorizer`: IoT Core waits 5 s for a custom authorizer; a later answer is a refusal anyway.
 * - `async`: the ingest stream, the ingest failure queue and schedules invoke ingest, ingest-failures
 *   and jobs without a caller waiting: Lambda's 900 s.
 */
export const TIMEOUT_LIMITS = { http: 29, authorizer: 5, async: 900 } as const;
export type FunctionInvoker = keyof typeof TIMEOUT_LIMITS;
const INVOKED_BY: Record<FunctionInvoker, string> = {
  http: 'behind the HTTP API',
  authorizer: 'that IoT Core calls as a custom authorizer',
  async: 'that a stream, a queue or a schedule invokes',
};

/** How a deployed function is invoked: the live authorizer by IoT Core, ingest, jobs and the queues' consumers asynchronously, the rest by the HTTP API. */
export function invokerOf(name: FunctionName): FunctionInvoker {
  if (name === LIVE_AUTHORIZER) return 'authorizer';
  const queue = queueList.some((q) => q.name === name);
  return queue || name === 'ingest' || name === 'jobs' || name === INGEST_FAILURES ? 'async' : 'http';
}

export const functionSettings: Readonly<Partial<Record<FunctionName, FunctionSettings>>> = {
  // IoT Core's limit: a slow answer is a refusal anyway, and failing sooner frees the instance.
  [LIVE_AUTHORIZER]: { timeoutSeconds: TIMEOUT_LIMITS.authorizer },
  // Reads up to 500 records of a failed batch back from the stream; its queue's visibility is six times this.
  [INGEST_FAILURES]: { timeoutSeconds: 60 },
  // Queue consumers: each queue's visibility timeout (shared/queues.ts) is six times its consumer's timeout.
  'alert-delivery': { timeoutSeconds: 30 },
  'trip-addresses': { timeoutSeconds: 30 },
  'trip-redetect': { timeoutSeconds: 300 },
  'unit-day-rollup': { timeoutSeconds: 30 },
  // A 12-month PDF of a large fleet: Lambda's 15 minutes, and memory (hence CPU) for pdfkit and exceljs.
  'report-export': { memorySize: 2048, timeoutSeconds: 900 },
  // A batch's attempts go out at once, each at most 10 s (functions/webhooks/send.ts), with the writes around them.
  'webhook-delivery': { timeoutSeconds: 30 },
  // The monthly attestation reminders walk accounts for up to 10 minutes a run (functions/jobs/attestation-reminders.ts).
  jobs: { timeoutSeconds: 720 },
};

/** The function's memory and timeout with the defaults filled in; throws, naming the entry, on a value outside the limits. */
export function resolveFunctionSettings(
  name: FunctionName,
  entry: FunctionSettings | undefined = functionSettings[name],
): Required<FunctionSettings> {
  const memorySize = entry?.memorySize ?? FUNCTION_SETTING_DEFAULTS.memorySize;
  const timeoutSeconds = entry?.timeoutSeconds ?? FUNCTION_SETTING_DEFAULTS.timeoutSeconds;
  const invoker = invokerOf(name);
  const limit = TIMEOUT_LIMITS[invoker];
  const where = `functionSettings.${name} (shared/capability-resources.ts)`;
  if (!Number.isInteger(memorySize) || memorySize < MEMORY_LIMITS.min || memorySize > MEMORY_LIMITS.max) {
    throw new Error(`${where}: memorySize ${memorySize} must be an integer from ${MEMORY_LIMITS.min} to ${MEMORY_LIMITS.max} MB`);
  }
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > limit) {
    const given = entry?.timeoutSeconds === undefined ? ' (the default)' : '';
    throw new Error(`${where}: timeoutSeconds ${timeoutSeconds}${given} must be an integer from 1 to ${limit} for a function ${INVOKED_BY[invoker]}`);
  }
  return { memorySize, timeoutSeconds };
}
