import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { physicalTableName, type TableDef } from '../../shared/tables';
import { SHORT_LIVED_JVM, createTables, localDynamoClient, startLocalDynamo } from './dynamo-local';
import { fileDynamo } from '../../test/support/file-dynamo';

const s = (name: string) => ({ name, type: 'S' as const });
const v1: TableDef = { name: 'things', description: 'test', partitionKey: s('id') };
const v2: TableDef = { ...v1, indexes: [{ name: 'byOwner', partitionKey: s('owner'), sortKey: s('id') }] };

/** The command line of the DynamoDB Local serving on `port` (Linux's /proc), as its arguments. */
function commandLineOn(port: string): string[] | undefined {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (args.some((a) => a.endsWith('DynamoDBLocal.jar')) && args[args.indexOf('-port') + 1] === port) return args;
  }
  return undefined;
}

describe.runIf(process.platform === 'linux')('the test run\'s DynamoDB Local', () => {
  it('runs in a JVM set up for minutes, not hours (the quick compiler, the serial collector)', () => {
    const args = commandLineOn(new URL(fileDynamo().endpoint).port);
    expect(args).toBeDefined();
    const jar = args!.findIndex((a) => a === '-jar');
    expect(args!.slice(0, jar)).toEqual(expect.arrayContaining([...SHORT_LIVED_JVM]));
  });
});

describe('createTables', () => {
  it('adds an index the manifest gained since the data directory was created, and is idempotent', async () => {
    const client = localDynamoClient(fileDynamo());
    const prefix = `t${randomBytes(4).toString('hex')}-`;
    await createTables(client, prefix, [v1]);
    await createTables(client, prefix, [v2]);
    await createTables(client, prefix, [v2]);
    const { Table } = await client.send(new DescribeTableCommand({ TableName: physicalTableName(prefix, v2) }));
    expect(Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName)).toEqual(['byOwner']);
    client.destroy();
  });
});

describe('the portal\'s DynamoDB Local', () => {
  it("answers a stranger's credentials with an empty database of their own, and no web page", async () => {
    const own = fileDynamo();
    const owner = localDynamoClient(own);
    const prefix = `t${randomBytes(4).toString('hex')}-`;
    await createTables(owner, prefix, [v1]);
    // The owner finds it (DescribeTable: ListTables answers 100 names a page, and the test run has more).
    const TableName = physicalTableName(prefix, v1);
    expect((await owner.send(new DescribeTableCommand({ TableName }))).Table?.TableName).toBe(TableName);

    // Anyone who reaches the port (it listens on every interface) with other credentials.
    const stranger = localDynamoClient({ endpoint: own.endpoint, accessKeyId: `STRANGER${randomBytes(4).toString('hex').toUpperCase()}` });
    expect((await stranger.send(new ListTablesCommand({}))).TableNames).toEqual([]);
    await expect(stranger.send(new DescribeTableCommand({ TableName }))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    stranger.destroy();
    owner.destroy();

    // A page in a browser on this machine: the preflight names no allowed origin, so the browser refuses.
    const preflight = await fetch(own.endpoint, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type,x-amz-target' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps its secret key in the data directory, and adopts a database an earlier version shared', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dynamo-local-'));
    try {
      const first = await startLocalDynamo({ dataDir, jvmOptions: SHORT_LIVED_JVM });
      const client = localDynamoClient(first);
      await createTables(client, 'keep-', [v1]);
      client.destroy();
      await first.stop();
      const keyFile = join(dataDir, 'dynamodb', 'access-key-id');
      expect(statSync(keyFile).mode & 0o077).toBe(0);

      // An older version kept everything in one shared database file.
      renameSync(join(dataDir, 'dynamodb', `${first.accessKeyId}_eu-north-1.db`), join(dataDir, 'dynamodb', 'shared-local-instance.db'));
      const again = await startLocalDynamo({ dataDir, jvmOptions: SHORT_LIVED_JVM });
      expect(again.accessKeyId).toBe(first.accessKeyId);
      const reopened = localDynamoClient(again);
      expect((await reopened.send(new ListTablesCommand({}))).TableNames).toEqual([physicalTableName('keep-', v1)]);
      reopened.destroy();
      await again.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
