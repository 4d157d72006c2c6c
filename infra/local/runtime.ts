/**
 * The embedded runtime: the whole portal on one machine. It owns DynamoDB Local, the MQTT broker
 * with its rule bridge and WebSocket listener, the HTTP server for the API and the web app, and
 * the timers of scheduled jobs, and it runs the very handlers the CDK stack deploys.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { BASEMAP_ARCHIVE, BASEMAP_URL } from '../../shared/basemap';
import { iotRules, type IotRuleEvent } from '../../shared/iot-rules';
import { queueList, type QueueDef } from '../../shared/queues';
import { openApiDocument } from '../../shared/openapi';
import { handlerPath, routeList, type RouteDef } from '../../shared/routes';
import { tableList } from '../../shared/tables';
import { brandForHost } from '../brand-router';
import { contentSecurityPolicy, originOf } from '../content-security-policy';
import { jobs } from '../jobs';
import { registerLocalBroker, unregisterLocalBroker } from '../../functions/platform/adapters/embedded/local-broker';
import { asLocalFileStore, LOCAL_FILES_PATH } from '../../functions/platform/adapters/embedded/file-store';
import { getPorts } from '../../functions/platform/container';
import { recordStreamFailure } from '../../functions/ingest/dead-letters';
import { createStreamDispatcher, type BatchEventHandler, type EventLambdaHandler } from '../../functions/platform/dispatch';
import { EMBEDDED_INGEST_STREAM, INGEST_STREAM_SHARDS, type IngestStreamSettings } from '../../shared/ingest-stream';
import { mapConfigFor } from '../../functions/tracking/get-map-config';
import { lambdaContext } from './api-event';
import { ruleOutputs, startLocalBroker, type LocalBroker } from './broker';
import { createLocalStream } from './stream';
import { openWriteAheadLog, syncFiles } from './ingest-log';
import { authorizeLiveSubscribe, refreshLiveAuthorization } from './live-authorizer';
import { REFRESH_SECONDS } from '../../functions/live/authorize';
import { createTables, localDynamoClient, startLocalDynamo, type LocalDynamoTarget } from './dynamo-local';
import { configureHandlerEnvironment } from './handler-env';
import { createHttpServer, type ApiHandler } from './http-server';
import { startScheduler, type JobHandler } from './scheduler';
import { startLocalQueues, type LocalQueues, type QueueConsumer } from './queues';
import { seedDemo, seedDemoAlarmReceiver, seedSimulatedUnits, seedSupport, simulatedUnits } from './seed';
import { fillDemoHistory, generateForPlan, planDemoHistory, prepareDemoHistory, type BackfillResult } from './demo-history';
import { reportDemoFill } from '../../functions/platform/adapters/embedded/demo-fill';
import { warmOfflineGeocoder } from '../../functions/platform/adapters/embedded/geocoder';
import { startSimulator } from './simulator/simulator';

export const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export interface RuntimeOptions {
  /** HTTP port; 0 picks a free one. */
  port: number;
  /** MQTT (TCP) port; 0 picks a free one. */
  mqttPort: number;
  /** Where data is kept across restarts; null keeps everything in memory. */
  dataDir: string | null;
  /**
   * Address the HTTP server (with the MQTT WebSocket) and the MQTT TCP listener bind to; default
   * 127.0.0.1, so that nothing but this machine reaches the portal unless asked (`0.0.0.0`).
   */
  host?: string;
  /** Host name to brand id, as the CloudFront Function is configured. */
  brandDomains?: Record<string, number>;
  webDir?: string;
  seed?: boolean;
  /** Simulated trackers driving around Stockholm (infra/local/simulator); 0 or absent: none. */
  simulatedTrackers?: number;
  /**
   * Days of demo history the simulated trackers' units get through the ingest path on the first
   * start (infra/local/demo-history.ts), filled behind the live fleet; 0 or absent: none.
   */
  demoHistoryDays?: number;
  tablePrefix?: string;
  /** Time to live on the tables that have it (default); the tests switch it off (createTables). */
  timeToLive?: boolean;
  /** Use an already running DynamoDB Local (tests share one) instead of starting one. */
  dynamo?: LocalDynamoTarget;
  /**
   * Origins the base map's tiles, glyphs or sprites come from besides MAP_STYLE_URL's own, for the
   * Content-Security-Policy (MAP_EXTRA_ORIGINS of `npm start`).
   */
  mapOrigins?: readonly string[];
  /**
   * The self-hosted base map's folder, served under /basemap/ (infra/local/http-server.ts): a
   * Protomaps archive `basemap.pmtiles` with its `fonts/` and `sprites/` (docs/operations.md). Default
   * BASEMAP_DIR, else `<dataDir>/basemap`. When the archive is there at start, the map config offers
   * it as the street map (BASEMAP_URL).
   */
  basemapDir?: string | null;
  /** How often the ingest log checkpoints (infra/local/ingest-log.ts); default a second. */
  ingestCheckpointEveryMs?: number;
  /** Default: shared/queues.ts (tests add queues of their own). */
  queues?: readonly QueueDef[];
  /**
   * Load the offline gazetteer as soon as the server listens (about 300 ms of one thread), instead
   * of when the first trip closes, where it would hold up every tracker's positions for as long.
   * `npm start` and the benchmarks do; a test's short-lived runtime loads it on first use.
   */
  warmGeocoder?: boolean;
}

export interface EmbeddedRuntime {
  url: string;
  mqttUrl: string;
  wsUrl: string;
  dynamo: LocalDynamoTarget;
  tablePrefix: string;
  seeded: boolean;
  /**
   * The demo history this start fills behind the live fleet (infra/local/demo-history.ts): what
   * it sends, and `filled`, which resolves once all of it is handled (rejects when stopped first);
   * null when it has nothing to do.
   */
  demoHistory: DemoHistoryFill | null;
  /** The work queues of the manifest, each read by its consumer (infra/local/queues.ts). */
  queues: LocalQueues;
  /**
   * Hands a tracker message to the ingest path on the demo history's stream, which gives way to the
   * trackers' (what the demo history fill sends through); resolves once it is handled.
   */
  ingestHistory(topic: string, payload: string): Promise<void>;
  /**
   * Resolves once every tracker message acknowledged so far is handled (its live publishes, alerts
   * and queue messages sent) and no work queue has a message waiting, being consumed or invisible:
   * what a test awaits before it asserts that nothing more happened.
   */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What a running runtime with a data directory announces in `<dataDir>/runtime.json`, so that
 * tools of the same environment (`npm run provision`) reach its DynamoDB Local and tables. It is
 * removed on stop; a file whose pid is gone is left over from a runtime that was killed. It holds
 * the database's access key id, so only the data directory's owner may read it.
 * An in-memory (`--ephemeral`) runtime announces nothing: its data would vanish with it anyway.
 */
export interface RuntimeAnnouncement {
  dynamoEndpoint: string;
  dynamoAccessKeyId: string;
  tablePrefix: string;
  url: string;
  pid: number;
}

export const RUNTIME_FILE = 'runtime.json';

export interface DemoHistoryFill {
  days: number;
  units: number;
  positions: number;
  filled: Promise<BackfillResult>;
}

/**
 * The demo history's stream: the ingest path's settings, with two lanes and smaller batches, so
 * that a history batch holds DynamoDB Local only briefly; it gives way to the trackers' stream.
 */
export const DEMO_HISTORY_STREAM: IngestStreamSettings = { ...EMBEDDED_INGEST_STREAM, parallelizationFactor: 2, batchSize: 100 };

/** Wildcard addresses: every interface, this machine's loopback among them. */
const ANY_ADDRESS = new Set(['0.0.0.0', '::']);

/** A random secret kept in DATA_DIR under `name` (made on the first start), or a new one per start without a data directory. */
function keptSecret(dataDir: string | null, name: 'jwt-secret' | 'vapid-seed'): string {
  if (!dataDir) return randomBytes(48).toString('base64url');
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

async function importHandler<T>(file: string): Promise<T> {
  const mod = (await import(pathToFileURL(join(projectRoot, file)).href)) as { handler?: T };
  if (typeof mod.handler !== 'function') throw new Error(`${file} does not export a handler`);
  return mod.handler;
}

/**
 * A queue's consumer, imported when its first batch comes: the report exports' consumer alone
 * (PDF and spreadsheet writers) took about a second of CPU to import, at every start, for queues
 * most runs never use. The start still fails on a consumer file that is not there, as the synth does.
 */
function consumerOnFirstBatch(file: string): QueueConsumer {
  if (!existsSync(join(projectRoot, file))) throw new Error(`queue consumer ${file} does not exist`);
  let loaded: Promise<QueueConsumer> | undefined;
  return async (event, context) => (await (loaded ??= importHandler<QueueConsumer>(file)))(event, context);
}

export async function startEmbeddedRuntime(options: RuntimeOptions): Promise<EmbeddedRuntime> {
  const dataDir = options.dataDir ? resolve(options.dataDir) : null;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const host = options.host ?? '127.0.0.1';
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((e: unknown) => console.error('stop failed', e));
  };

  // The demo history a first start fills: generated on a worker thread while the rest starts.
  const history = options.simulatedTrackers && options.demoHistoryDays ? planDemoHistory({ dataDir, days: options.demoHistoryDays }) : null;
  const generated = history && options.simulatedTrackers ? generateForPlan(simulatedUnits(options.simulatedTrackers), history) : undefined;

  try {
    const db: LocalDynamoTarget = options.dynamo
      ? options.dynamo
      : await startLocalDynamo(dataDir ? { dataDir } : {}).then((started) => {
          stops.push(() => started.stop());
          return started;
        });

    const prefix = options.tablePrefix ?? 'local-';
    const admin = localDynamoClient(db);
    await createTables(admin, prefix, tableList, { timeToLive: options.timeToLive ?? true });

    const secret = keptSecret(dataDir, 'jwt-secret');
    // The seed of the Web Push VAPID keys: kept, so that a restart keeps the browsers' subscriptions valid.
    const vapidSeed = keptSecret(dataDir, 'vapid-seed');
    const basemapDir = options.basemapDir !== undefined ? options.basemapDir : process.env['BASEMAP_DIR'] || (dataDir ? join(dataDir, 'basemap') : null);
    const basemapUrl = basemapDir && existsSync(join(basemapDir, BASEMAP_ARCHIVE)) ? BASEMAP_URL : null;
    const handlerEnv = (appUrl: string) =>
      configureHandlerEnvironment({
        basemapUrl,
        tablePrefix: prefix,
        dynamo: { endpoint: db.endpoint, accessKeyId: db.accessKeyId },
        jwtSecret: secret,
        vapidSeed,
        appUrl,
        filesDir: dataDir ? join(dataDir, 'files') : null,
      });
    // The APP_URL is set again once the HTTP server listens and its address is known.
    handlerEnv(`http://localhost:${options.port || 3000}`);

    const handlers = new Map<string, Promise<ApiHandler>>();
    const loadHandler = (route: RouteDef) => {
      const file = handlerPath(route);
      let h = handlers.get(file);
      if (!h) {
        h = importHandler<ApiHandler>(file);
        handlers.set(file, h);
      }
      return h;
    };

    // The work queues, each read by its consumer as its event source mapping reads it on AWS; up
    // before anything that sends to them (ingest, jobs) and stopped after those.
    const workQueues = await startLocalQueues(options.queues ?? queueList, async (file) => consumerOnFirstBatch(file), {
      context: (queue, requestId) => lambdaContext(`local-queue-${queue}`, requestId),
      onFailure: (queue, message, dead) => {
        if (dead) console.error(`queue ${queue}: message ${message.messageId} failed ${message.receiveCount} times; moved to its dead-letter queue`, message.lastError);
      },
    });
    stops.push(() => workQueues.stop());

    // The ingest path as on AWS: the rules' output on a stream keyed by IMEI, read in batches by
    // the function's entry (the same dispatcher the stack bundles), failures to the dead letters.
    type IngestHandler = EventLambdaHandler<IotRuleEvent> | BatchEventHandler<IotRuleEvent>;
    const ingestRoutes = await Promise.all(
      iotRules.map(async (rule) => ({ topicFilter: rule.topicFilter, handler: await importHandler<IngestHandler>(handlerPath(rule.handler)) })),
    );
    const ingest = createStreamDispatcher(ingestRoutes);
    // With a data directory the stream keeps its records in a write-ahead log until they are
    // stored, and the broker acknowledges a message once it is in the log (infra/local/ingest-log.ts):
    // what a killed runtime had acknowledged is handled at the next start, ahead of new messages.
    // A checkpoint syncs DynamoDB Local's files before trimming; a shared DynamoDB Local (tests)
    // is not the runtime's to sync.
    const log = dataDir
      ? openWriteAheadLog({
          dir: join(dataDir, 'ingest-log'),
          syncStore: options.dynamo ? async () => undefined : () => syncFiles(join(dataDir, 'dynamodb')),
          ...(options.ingestCheckpointEveryMs ? { checkpointEveryMs: options.ingestCheckpointEveryMs } : {}),
        })
      : undefined;
    if (log) stops.push(() => log.close());
    const stream = createLocalStream({
      settings: EMBEDDED_INGEST_STREAM,
      shards: INGEST_STREAM_SHARDS,
      handler: (event) => ingest(event, lambdaContext('local-ingest', randomUUID())),
      onFailure: recordStreamFailure,
      ...(log ? { log } : {}),
    });
    const broker: LocalBroker = await startLocalBroker({
      port: options.mqttPort,
      host,
      rules: iotRules,
      onRuleOutput: (_rule, event) => stream.put(event.imei, JSON.stringify(event)),
      drain: () => stream.drain(),
      authorizeLiveSubscribe,
      refreshLive: { everyMs: REFRESH_SECONDS * 1000, refresh: refreshLiveAuthorization },
    });
    registerLocalBroker((topic, payload, qos) => broker.publish(topic, payload, qos));
    // What a killed runtime had acknowledged is on the stream's lanes already, ahead of anything a
    // tracker sends now; handled with the broker up, so that its live updates and commands go out.
    if (log?.recovered.length) {
      console.log(`Ingest: handling ${log.recovered.length} acknowledged messages left from the last run...`);
      await stream.drain();
    }
    // The demo history's stream: the same handler, lanes of its own that start a batch only while
    // the trackers' stream has nothing waiting, and no log (the history is generated again after a
    // crash). Stopped before the broker's drain, what it has queued is dropped.
    const historyStream = createLocalStream({
      settings: DEMO_HISTORY_STREAM,
      shards: 1,
      handler: (event) => ingest(event, lambdaContext('local-ingest-history', randomUUID())),
      onFailure: recordStreamFailure,
      yieldTo: () => stream.waiting() > 0,
    });
    stops.push(() => historyStream.close());
    // Stops run in reverse: the broker drains what it already acknowledged (live messages among it)
    // before the live publisher is unregistered.
    stops.push(async () => unregisterLocalBroker());
    stops.push(() => broker.stop());

    // A job whose handler file is missing fails the start, as it fails the synth.
    const scheduled = await Promise.all(jobs.map(async (job) => ({ job, handler: await importHandler<JobHandler>(job.file) })));
    const stopScheduler = startScheduler(
      scheduled,
      (name, requestId) => lambdaContext(`local-job-${name}`, requestId),
      (job, error) => console.error(`job ${job.name} failed`, error),
    );
    stops.push(stopScheduler);

    // First start with simulated trackers: the window of their demo history; the units are
    // registered an hour before it, since a unit's owner sees nothing from before its registration.
    const registeredAt = history ? new Date(history.from - 3_600_000) : new Date();
    let seeded = false;
    if (options.seed !== false) {
      seeded = (await seedDemo(registeredAt)).seeded;
      await seedSupport(registeredAt);
    }
    if (options.simulatedTrackers) {
      await seedSimulatedUnits(options.simulatedTrackers, registeredAt);
      // With the demo, once: the demo admin gets the security alarms of its units (safe return home's).
      if (seeded) await seedDemoAlarmReceiver();
    }

    const brandDomains = options.brandDomains ?? {};
    // Known once the server listens: the live channel's port is part of it.
    let csp = '';
    const server = createHttpServer({
      routes: routeList,
      loadHandler,
      webDir: options.webDir ?? join(projectRoot, 'web', 'dist'),
      basemapDir,
      // Without configured domains every host gets the plain page, whose `?subsite=N` picks a brand
      // for demos; with them, hosts get their brand's page exactly as from CloudFront.
      brandForHost: (h) => (Object.keys(brandDomains).length ? brandForHost(h, brandDomains) : null),
      openapi: () => openApiDocument(routeList, { embedded: true }),
      contentSecurityPolicy: () => csp,
      // The outbox page lists password-reset links and 2FA codes; its API checks the same itself.
      loopbackOnlyPage: (path) => /^\/dev(\/|$)/i.test(path),
      // Unit pictures: the embedded file store's signed upload and view URLs.
      files: {
        prefix: LOCAL_FILES_PATH,
        upload: async (token, contentType, bytes) => {
          const ports = getPorts();
          return (await asLocalFileStore(ports.files)?.acceptUpload(token, contentType, bytes, ports.clock.now())) === 'stored';
        },
        view: async (token) => {
          const ports = getPorts();
          return (await asLocalFileStore(ports.files)?.serve(token, ports.clock.now())) ?? null;
        },
      },
      health: async () => {
        const parts = {
          dynamodb: await admin.send(new ListTablesCommand({ Limit: 1 })).then(
            () => true,
            () => false,
          ),
          mqtt: broker.listening(),
          http: server.listening,
        };
        return { status: Object.values(parts).every(Boolean) ? 'ok' : 'failing', parts };
      },
    });
    broker.attachWebSocket(server, '/mqtt');
    await new Promise<void>((ready, fail) => {
      server.once('error', fail);
      server.listen(options.port, host, () => ready());
    });
    stops.push(
      () =>
        new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
    );
    // A failure to load answers the first lookup (the load is kept, as its result would be).
    if (options.warmGeocoder) setImmediate(() => warmOfflineGeocoder().catch(() => undefined));
    const port = (server.address() as AddressInfo).port;
    const shownHost = ANY_ADDRESS.has(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
    const url = `http://${shownHost}:${port}`;
    handlerEnv(url);
    const wsUrl = `ws://${shownHost}:${port}/mqtt`;
    // The live channel's URL comes from APP_URL (functions/live/live-endpoint.ts), as wsUrl does;
    // the base maps are the ones GET /user/map/config offers, from the variable the handlers read.
    const offered = mapConfigFor(process.env['MAP_STYLE_URL'] || undefined);
    csp = contentSecurityPolicy({
      mapStyleUrl: offered.styleUrl,
      // The self-hosted archive is on this origin ('self'); the styles on offer beside it are not.
      mapOrigins: [...(offered.styles ?? []).map((style) => originOf(style.url)), ...(options.mapOrigins ?? [])],
      liveOrigin: new URL(wsUrl).origin,
    });

    // The rule bridge's output for a message, as a tracker's publish makes it, on the history stream.
    const ingestHistory = async (topic: string, payload: string) => {
      await Promise.all(ruleOutputs(iotRules, topic, Buffer.from(payload), Date.now()).map(({ event }) => historyStream.process(event.imei, JSON.stringify(event))));
    };

    // The live fleet drives at once, each unit from where its history ends (or its stored state);
    // the history fills behind it on its own stream.
    let demoHistory: DemoHistoryFill | null = null;
    if (options.simulatedTrackers) {
      const brokerHost = ANY_ADDRESS.has(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      const mqttUrl = `mqtt://${brokerHost}:${broker.port}`;
      const units = simulatedUnits(options.simulatedTrackers);
      const prepared = history ? await prepareDemoHistory({ units, plan: history, dataDir, ...(generated ? { generated } : {}) }) : null;
      const simulator = await startSimulator({ mqttUrl, trackers: options.simulatedTrackers, resume: true, ...(prepared ? { resumeFrom: prepared.resume } : {}) });
      stops.push(() => simulator.stop());
      if (prepared?.units.length) {
        const stopFill = new AbortController();
        const { accountIds } = prepared;
        const filled = fillDemoHistory(prepared, {
          dataDir,
          signal: stopFill.signal,
          ingest: ingestHistory,
          onProgress: (done) => reportDemoFill(done < 1 ? { accountIds, done } : null),
        });
        filled.catch((error: unknown) => {
          reportDemoFill(null);
          if (!stopFill.signal.aborted) console.error('Demo history: the fill failed; the next start goes on with it', error);
        });
        demoHistory = { days: history?.days ?? 0, units: prepared.units.length, positions: prepared.positions, filled };
        // Before the simulator and the broker stop: the fill ends between messages and its queued
        // records are dropped (the next start sends the units not done again).
        stops.push(async () => {
          stopFill.abort();
          reportDemoFill(null);
          await historyStream.close();
          await filled.catch(() => undefined);
        });
      }
    }

    if (dataDir) {
      const file = join(dataDir, RUNTIME_FILE);
      const announcement: RuntimeAnnouncement = { dynamoEndpoint: db.endpoint, dynamoAccessKeyId: db.accessKeyId, tablePrefix: prefix, url, pid: process.pid };
      writeFileSync(file, `${JSON.stringify(announcement, null, 2)}\n`, { mode: 0o600 });
      // Pushed last, so it goes first: nobody is sent to a runtime that is shutting down.
      stops.push(async () => rmSync(file, { force: true }));
    }

    return {
      url,
      wsUrl,
      mqttUrl: `mqtt://${shownHost === 'localhost' ? '127.0.0.1' : shownHost}:${broker.port}`,
      dynamo: { endpoint: db.endpoint, accessKeyId: db.accessKeyId },
      tablePrefix: prefix,
      seeded,
      demoHistory,
      queues: workQueues,
      ingestHistory,
      settled: async () => {
        await stream.drain();
        await workQueues.drained();
      },
      stop: async () => {
        admin.destroy();
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
