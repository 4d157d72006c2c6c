/**
 * Nothing the broker acknowledged is lost when the runtime is killed: `npm start`'s entry
 * (infra/local/main.ts) runs as a child process in a process group of its own, on a temporary data
 * directory; trackers publish QoS 1 positions as fast as the broker takes them, the group (the
 * runtime and its DynamoDB Local) is killed with SIGKILL mid-stream, and a second start on the same
 * data directory handles what the first one had acknowledged (infra/local/ingest-log.ts) before it
 * announces itself. Every acknowledged position is then stored, once, and nothing is stored that
 * was not published.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { localDynamoClient, SHORT_LIVED_JVM } from '../../infra/local/dynamo-local';
import { projectRoot, RUNTIME_FILE, type RuntimeAnnouncement } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { physicalTableName, tables } from '../../shared/tables';
import { positionsOfItem } from '../../functions/ingest/position-codec';

const TRACKERS = [demoImei(0), demoImei(1), demoImei(2), demoImei(3)];
const PER_TRACKER = 1000;
/** Positions acknowledged before the rest are sent and the runtime is killed: about a third of them. */
const KILL_AFTER = 1500;

const dataDir = mkdtempSync(join(tmpdir(), 'ingest-durability-'));
const children = new Set<ChildProcess>();

interface Started {
  child: ChildProcess;
  mqttUrl: string;
}

/** Starts the runtime's entry in a process group of its own; resolves once it says it is running. */
function startRuntimeProcess(): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'infra/local/main.ts')], {
    cwd: projectRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its DynamoDB Local lives seconds: the JVM options of the test run's (read by any JVM from the environment).
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', MQTT_PORT: '0', HOST: '127.0.0.1', SIMULATED_TRACKERS: '0', DEMO_HISTORY_DAYS: '0', JAVA_TOOL_OPTIONS: SHORT_LIVED_JVM.join(' ') },
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let output = '';
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      const mqttUrl = /MQTT:\s+(mqtt:\/\/\S+)/.exec(output)?.[1];
      if (/Tracking portal is running/.test(output) && mqttUrl) resolve({ child, mqttUrl });
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.once('exit', (code, signal) => reject(new Error(`the runtime exited (${code ?? signal}) before it was running:\n${output}`)));
  });
}

function killGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {
    // The group is gone already.
  }
  return exited;
}

afterAll(async () => {
  await Promise.all([...children].map(killGroup));
  rmSync(dataDir, { recursive: true, force: true });
});

const connect = (url: string, imei: string) => mqtt.connectAsync(url, { clientId: imei, reconnectPeriod: 0, connectTimeout: 10_000 });

describe('ingest durability', () => {
  it('stores every position the broker acknowledged, once, after the runtime is killed mid-stream and started again', async () => {
    const first = await startRuntimeProcess();
    const t0 = Date.now();
    const trackers = await Promise.all(TRACKERS.map((imei) => connect(first.mqttUrl, imei)));
    const acked = new Set<string>();
    const published = new Set<string>();
    const sends: Promise<unknown>[] = [];
    const publish = (i: number) =>
      trackers.forEach((tracker, n) => {
        const imei = TRACKERS[n] as string;
        const ts = t0 + i * 100;
        published.add(`${imei}/${ts}`);
        const body = JSON.stringify({ ts, lat: 59.3326 + n * 0.01 + i * 1e-6, lon: 18.0649, spd: 0, sat: 9 });
        sends.push(
          tracker.publishAsync(`trackers/${imei}/telemetry`, body, { qos: 1 }).then(
            () => acked.add(`${imei}/${ts}`),
            () => undefined,
          ),
        );
      });
    // The first part is acknowledged (the ingest behind the log still has most of it to store);
    // then the rest goes out and the runtime is killed while it takes it in.
    const firstPart = KILL_AFTER / TRACKERS.length;
    for (let i = 0; i < firstPart; i++) publish(i);
    await Promise.all(sends);
    for (let i = firstPart; i < PER_TRACKER; i++) publish(i);
    // A PUBACK that still comes in after this was sent before the kill, and counts as well.
    await killGroup(first.child);
    for (const t of trackers) t.end(true);
    await Promise.all(sends);
    expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(acked.size).toBeLessThan(published.size);

    // The second start hands what the first acknowledged to ingest before it says it is running.
    const second = await startRuntimeProcess();
    const announced = JSON.parse(readFileSync(join(dataDir, RUNTIME_FILE), 'utf8')) as RuntimeAnnouncement;
    const db = DynamoDBDocumentClient.from(localDynamoClient({ endpoint: announced.dynamoEndpoint, accessKeyId: announced.dynamoAccessKeyId }));
    const stored: string[] = [];
    for (const imei of TRACKERS) {
      let ExclusiveStartKey: Record<string, unknown> | undefined;
      do {
        const page = await db.send(
          new QueryCommand({
            TableName: physicalTableName(announced.tablePrefix, tables.positions),
            KeyConditionExpression: 'imei = :i',
            ExpressionAttributeValues: { ':i': imei },
            ExclusiveStartKey,
          }),
        );
        // A buffered message's positions are one item (a chunk); readers read each time once.
        for (const p of (page.Items ?? []).flatMap(positionsOfItem)) stored.push(`${imei}/${p.ts}`);
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey);
    }
    db.destroy();
    const storedSet = new Set(stored);
    const lost = [...acked].filter((key) => !storedSet.has(key));
    expect(lost, `${lost.length} of ${acked.size} acknowledged positions lost`).toEqual([]);
    expect(stored.length).toBe(storedSet.size);
    expect(stored.filter((key) => !published.has(key))).toEqual([]);
    await killGroup(second.child);
  }, 240_000);
});
