/**
 * `npm run provision` against a real embedded runtime with a data directory (sharing the test
 * run's DynamoDB Local under a table prefix of its own), as an operator runs it beside `npm start`.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { physicalTableName, tables } from '../../shared/tables';
import { imeiFrom } from '../../shared/validators/imei';
import { localDynamoClient } from '../../infra/local/dynamo-local';
import { RUNTIME_FILE, projectRoot, startEmbeddedRuntime, type EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { runProvision } from './run';
import { fileDynamo } from '../../test/support/file-dynamo';

const NOW = new Date('2026-03-02T08:00:00.000Z');
const tracker = (n: number) => imeiFrom(`35209900${String(n).padStart(6, '0')}`);

let dataDir: string;
const scratch: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
};
let rt: EmbeddedRuntime;
let running = false;
let db: DynamoDBDocumentClient;

async function provision(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runProvision(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, { env: {}, now: () => NOW });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function inventoryItem(imei: string) {
  const res = await db.send(new GetCommand({ TableName: physicalTableName(rt.tablePrefix, tables.inventory), Key: { imei } }));
  return res.Item;
}

beforeAll(async () => {
  dataDir = tempDir('provision-data-');
  rt = await startEmbeddedRuntime({
    port: 0,
    mqttPort: 0,
    dataDir,
    host: '127.0.0.1',
    dynamo: fileDynamo(),
    tablePrefix: `t${randomBytes(4).toString('hex')}-`,
    seed: true,
  });
  running = true;
  db = DynamoDBDocumentClient.from(localDynamoClient(rt.dynamo));
});
afterAll(async () => {
  db?.destroy();
  if (running) await rt.stop();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('the running runtime announces itself', () => {
  it('writes runtime.json into its data directory, readable by its owner only (it holds the database key)', () => {
    expect(statSync(join(dataDir, RUNTIME_FILE)).mode & 0o077).toBe(0);
    expect(JSON.parse(readFileSync(join(dataDir, RUNTIME_FILE), 'utf8'))).toEqual({
      dynamoEndpoint: rt.dynamo.endpoint,
      dynamoAccessKeyId: rt.dynamo.accessKeyId,
      tablePrefix: rt.tablePrefix,
      url: rt.url,
      pid: process.pid,
    });
  });
});

describe('provision into the embedded runtime', () => {
  it('adds the valid IMEIs, reports and skips the invalid ones, and fails the run for them', async () => {
    const [a, b] = [tracker(1), tracker(2)];
    const wrongCheckDigit = a.slice(0, 14) + String((Number(a[14]) + 1) % 10);
    const run = await provision(['--data-dir', dataDir, a, '123', wrongCheckDigit, b]);

    expect(run.code).toBe(1);
    expect(run.out).toContain(`into the portal at ${rt.url}`);
    expect(run.out).toMatch(new RegExp(`${a}\\s+added to the inventory`));
    expect(run.out).toMatch(new RegExp(`${b}\\s+added to the inventory`));
    expect(run.err).toMatch(/123\s+skipped: not a valid IMEI/);
    expect(run.err).toMatch(new RegExp(`${wrongCheckDigit}\\s+skipped: not a valid IMEI`));
    expect(run.out).toContain('Done: 2 added, 0 already in the inventory, 2 invalid, 0 failed.');
    // Each tracker's topics: Basic Ingest to the rules as the embedded runtime names them.
    for (const imei of [a, b]) {
      expect(run.out).toContain(`publishes positions to $aws/rules/TrackingPortal_trackerTelemetry/trackers/${imei}/telemetry`);
      expect(run.out).toContain(`publishes command answers to $aws/rules/TrackingPortal_commandAck/trackers/${imei}/ack`);
      expect(run.out).toContain(`receives commands on trackers/${imei}/commands`);
    }
    expect(run.out).not.toContain(`trackers/${wrongCheckDigit}/telemetry`);

    expect(await inventoryItem(a)).toEqual({ imei: a, registered: false, provisionedAt: NOW.toISOString() });
    expect(await inventoryItem(b)).toEqual({ imei: b, registered: false, provisionedAt: NOW.toISOString() });
    expect(await inventoryItem(wrongCheckDigit)).toBeUndefined();
  });

  it('reports trackers already in the inventory without touching them, and succeeds when all are valid', async () => {
    const a = tracker(1);
    const registered = demoImei(0);
    const before = await inventoryItem(registered);
    const later = await runProvision(
      ['--data-dir', dataDir, a, registered],
      { out: () => undefined, err: () => undefined },
      { env: {}, now: () => new Date('2027-01-01T00:00:00Z') },
    );
    expect(later).toBe(0);
    expect(await inventoryItem(a)).toEqual({ imei: a, registered: false, provisionedAt: NOW.toISOString() });
    expect(await inventoryItem(registered)).toEqual(before);

    const run = await provision(['--data-dir', dataDir, a, registered]);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(new RegExp(`${a}\\s+already in the inventory since ${NOW.toISOString()}, not registered yet`));
    expect(run.out).toMatch(new RegExp(`${registered}\\s+already in the inventory since ${String(before?.['provisionedAt'])}, registered`));
    expect(run.out).toContain('Done: 0 added, 2 already in the inventory, 0 invalid, 0 failed.');
  });

  it('finds the runtime through DATA_DIR like npm start, and exits non-zero as a process when an IMEI is invalid', () => {
    const c = tracker(3);
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/provision.ts', c, 'not-an-imei'], {
      cwd: projectRoot,
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: dataDir },
    });
    expect(child.stdout).toMatch(new RegExp(`${c}\\s+added to the inventory`));
    expect(child.stderr).toMatch(/not-an-imei\s+skipped/);
    expect(child.status).toBe(1);
    // A fresh tsx process compiles the script first: slow on a busy machine.
  }, 60_000);

  it('says what to do when no runtime uses the data directory, or one that died left its file', async () => {
    const empty = tempDir('provision-none-');
    const none = await provision(['--data-dir', empty, tracker(4)]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('No running portal uses');
    expect(none.err).toContain('npm start');

    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(join(empty, RUNTIME_FILE), JSON.stringify({ dynamoEndpoint: rt.dynamo.endpoint, dynamoAccessKeyId: rt.dynamo.accessKeyId, tablePrefix: rt.tablePrefix, url: rt.url, pid: dead }));
    const stale = await provision(['--data-dir', empty, tracker(4)]);
    expect(stale.code).toBe(2);
    expect(stale.err).toContain(`pid ${dead}) that is no longer running`);

    writeFileSync(join(empty, RUNTIME_FILE), JSON.stringify({ dynamoEndpoint: rt.dynamo.endpoint, dynamoAccessKeyId: rt.dynamo.accessKeyId, tablePrefix: 'nothing-here-', url: rt.url, pid: process.pid }));
    const noTable = await provision(['--data-dir', empty, tracker(4)]);
    expect(noTable.code).toBe(2);
    expect(noTable.err).toContain('has no usable inventory table nothing-here-inventory');
    expect(await inventoryItem(tracker(4))).toBeUndefined();
  });

  it('reports invalid IMEIs even when there is nothing to provision', async () => {
    const run = await provision(['--data-dir', dataDir, '123']);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/123\s+skipped/);
    expect(run.err).toContain('Nothing provisioned');
  });

  it('is found no more once the runtime stops: the file goes with it', async () => {
    running = false;
    await rt.stop();
    expect(existsSync(join(dataDir, RUNTIME_FILE))).toBe(false);
    const run = await provision(['--data-dir', dataDir, tracker(5)]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('No running portal uses');
  });
});
