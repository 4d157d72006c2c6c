/**
 * `npm run bench:ingest-store`: what the store (DynamoDB Local) and the handler spend per position
 * of the ingest path, without the broker, the ingest log and the trackers' sockets: simulated
 * vehicles' buffered messages handed to the ingest handler's batch function (`ingestMessages`) in
 * stream batches (up to 500 records, 10 lanes at once), as fast as the store takes them. Prints
 * the CPU per position of DynamoDB Local (and its one SQLite thread) and of this process, the
 * positions per second, and the DynamoDB calls per message by command and table.
 *
 *   npm run bench:ingest-store -- [--units 2000] [--geofences 5] [--records 10] [--rounds 2] [--warmup 2] [--lanes 10]
 *     [--jvm "<options for DynamoDB Local's JVM>"] [--no-stages]
 *
 * `--no-stages` leaves out trip detection, the event engine and the other stages (and so their
 * effects): what positions, lookups and the state alone cost.
 *
 * Every unit sends one message of `--records` records per round (the vehicles drive on, one record
 * per 5 s of their clock); `--warmup` rounds first (the JVM compiles its hot paths, the stages'
 * states fill), then `--rounds` measured ones. Compare figures of runs on the same machine back to
 * back: the machine's speed varies by a quarter from hour to hour.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { IotRuleEvent } from '../../shared/iot-rules';
import { dynamo, tableName } from '../../functions/platform/db';
import { getPorts } from '../../functions/platform/container';
import { ingestMessages } from '../../functions/ingest/ingest-message';
import { startLocalDynamo } from '../../infra/local/dynamo-local';
import { startEmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei, seedSimulatedUnits, simulatedUnits } from '../../infra/local/seed';
import { SimulatedVehicle, type TrackerRecord } from '../../infra/local/simulator/vehicle';
import { RoadNetwork } from '../../infra/local/simulator/network';
import { telemetryMessage } from '../../infra/local/simulator/protocol';
import { dynamoLocalCpu, scatterZones } from './ingest-support';

const { values: flags } = parseArgs({
  options: {
    units: { type: 'string', default: '2000' },
    geofences: { type: 'string', default: '5' },
    records: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '2' },
    lanes: { type: 'string', default: '10' },
    jvm: { type: 'string', default: '' },
    'no-stages': { type: 'boolean', default: false },
  },
});
const units = Number(flags.units);
const geofences = Number(flags.geofences);
const recordsPerMessage = Number(flags.records);
const rounds = Number(flags.rounds);
const warmup = Number(flags.warmup);
const lanes = Number(flags.lanes);
const RECORD_MS = 5_000;
const BATCH_RECORDS = 500;

const dataDir = mkdtempSync(join(tmpdir(), 'bench-ingest-store-'));
const db = await startLocalDynamo(flags.jvm ? { jvmOptions: flags.jvm.split(' ').filter(Boolean) } : {});
const runtime = await startEmbeddedRuntime({ port: 0, mqttPort: 0, dataDir, dynamo: db, host: '127.0.0.1', seed: true });
try {
  const t0 = Date.now() - (warmup + rounds + 1) * recordsPerMessage * RECORD_MS - 3_600_000;
  // Past the demo units, which the runtime registered now (after the records these units send).
  const demo = simulatedUnits(1000).findIndex((u, i) => u.imei !== demoImei(i));
  await seedSimulatedUnits(demo + units, new Date(t0 - 600_000));
  const specs = simulatedUnits(demo + units).slice(demo);
  const accountId = String((await dynamo().send(new GetCommand({ TableName: tableName('units'), Key: { imei: specs[0]!.imei } }))).Item?.['accountId']);
  await scatterZones(accountId, specs.map((u) => u.imei), geofences, 1);
  const network = new RoadNetwork();
  const vehicles = specs.map(
    (u, i) =>
      new SimulatedVehicle({ index: i, imei: u.imei, vehicleType: u.vehicleType, seed: i + 1, start: t0, network, intervals: { movingS: RECORD_MS / 1000, parkedS: RECORD_MS / 1000 }, stepMs: RECORD_MS, eventReports: false, initial: 'driving' }),
  );
  const ports = getPorts();

  const calls = new Map<string, number>();
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { TableName?: string; RequestItems?: Record<string, unknown>; Statements?: Array<{ Statement: string }> };
      const short = (t: string) => t.replace(/^.*?-(?=[a-z-]+$)/, '');
      const tables = input.TableName ? short(input.TableName) : [...Object.keys(input.RequestItems ?? {}), ...new Set((input.Statements ?? []).map((s) => /"([^"]+)"/.exec(s.Statement)?.[1] ?? '?'))].map(short).join('+');
      const name = `${context.commandName ?? '?'} ${tables}`;
      calls.set(name, (calls.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'benchCalls' },
  );

  /** One round: every unit's next message, in stream batches over `lanes` lanes (a unit's messages stay in one lane). */
  const round = async (r: number) => {
    const until = t0 + (r + 1) * recordsPerMessage * RECORD_MS;
    const events: IotRuleEvent[] = vehicles.map((v, i) => {
      const records: TrackerRecord[] = v.advanceTo(until).slice(-recordsPerMessage);
      const { topic, payload } = telemetryMessage(specs[i]!.protocol, specs[i]!.imei, records);
      return { topic, imei: specs[i]!.imei, payload: Buffer.from(payload).toString('base64'), receivedAt: until + 1_000 };
    });
    const perBatch = Math.max(1, Math.floor(BATCH_RECORDS / recordsPerMessage));
    const batches: IotRuleEvent[][] = [];
    for (let i = 0; i < events.length; i += perBatch) batches.push(events.slice(i, i + perBatch));
    let next = 0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < batches.length) await ingestMessages(batches[next++]!, ports, flags['no-stages'] ? { stages: [] } : {});
      }),
    );
  };

  for (let r = 0; r < warmup; r++) await round(r);
  calls.clear();
  const cpu0 = process.cpuUsage();
  const db0 = dynamoLocalCpu();
  const wall0 = performance.now();
  for (let r = warmup; r < warmup + rounds; r++) await round(r);
  const wall = (performance.now() - wall0) / 1000;
  const db1 = dynamoLocalCpu();
  const cpu = process.cpuUsage(cpu0);
  const positions = units * rounds * recordsPerMessage;
  const us = (s: number) => `${((s * 1e6) / positions).toFixed(0).padStart(5)} us/position`;
  console.log(`\n  Ingest store cost: ${units} units, ${geofences} geofences each, ${recordsPerMessage} records per message, ${rounds} measured rounds (${positions} positions) after ${warmup}`);
  console.log(`    positions/s (store as fast as it goes)  ${(positions / wall).toFixed(0)}`);
  console.log(`    DynamoDB Local                           ${us(db1.dynamoS - db0.dynamoS)}`);
  console.log(`      of it, its SQLite thread               ${us(db1.sqliteS - db0.sqliteS)}`);
  console.log(`    this process (handler, SDK, runtime)     ${us((cpu.user + cpu.system) / 1e6)}`);
  console.log('    DynamoDB calls per message:');
  for (const [name, count] of [...calls].sort((a, b) => b[1] - a[1])) console.log(`      ${name.padEnd(46)} ${(count / (units * rounds)).toFixed(3)}`);
} finally {
  await runtime.stop();
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
