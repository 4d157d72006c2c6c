/**
 * The simulated fleet of the embedded runtime: each tracker is a real MQTT client on the broker's
 * TCP port with its IMEI as client id (so the broker's tracker permissions apply to it as to a
 * device), driving around Stockholm, publishing its records and answering commands.
 *
 *   const sim = await startSimulator({ mqttUrl: runtime.mqttUrl, trackers: 20, resume: true });
 *   ...
 *   await sim.stop();
 */
import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import mqtt, { type MqttClient } from 'mqtt';
import type { DeviceProtocol } from '../../../functions/platform/adapters/device-encoding';
import { dynamo, tableName } from '../../../functions/platform/db';
import { simulatedUnits } from '../seed';
import { RoadNetwork } from './network';
import { answerCommand, commandTopic, telemetryMessage } from './protocol';
import { trackerSeed } from './random';
import { SimulatedVehicle, type ReportIntervals, type ResumeState, type SensorKind, type VehicleOptions } from './vehicle';

export interface SimulatorOptions {
  /** The broker's TCP address, e.g. mqtt://127.0.0.1:1883. */
  mqttUrl: string;
  /** How many trackers of the demo fleet drive; 0 starts none. */
  trackers: number;
  /** The same seed drives the same trips. */
  seed?: number;
  /** Epoch ms; tests pass a faster one. */
  clock?: () => number;
  /** How often the vehicles are moved on (real time). */
  tickMs?: number;
  intervals?: ReportIntervals;
  stopMinutes?: readonly [number, number];
  initial?: VehicleOptions['initial'];
  /** Continue where the units were last seen (their stored state), so a restart does not jump. */
  resume?: boolean;
  /** Where units without a stored state start (the end of their demo history, infra/local/demo-history.ts). */
  resumeFrom?: ReadonlyMap<string, ResumeState>;
  log?: (message: string) => void;
}

export interface SimulatedTracker {
  imei: string;
  name: string;
  protocol: DeviceProtocol;
  vehicle: SimulatedVehicle;
  client: MqttClient;
}

export interface RunningSimulator {
  trackers: readonly SimulatedTracker[];
  /** Moves every vehicle on to the clock's time and publishes what is due (the timer calls it too). */
  tick(): void;
  stop(): Promise<void>;
}

export const DEFAULT_SEED = 20_240_601;
const CONNECT_TIMEOUT_MS = 15_000;

/** 12 hex digits with 41 at positions 6-7, as the spec says a BLE sensor's MAC has. */
export function bleMac(imei: string, n: number): string {
  const suffix = ((Number(imei.slice(-7)) * 4 + n) % 0x100000).toString(16).toUpperCase().padStart(5, '0');
  return `AC23F41${suffix}`;
}

/** A few units carry BLE sensors: refrigerated lorries a probe and a door contact, the bus a cabin sensor. */
export function sensorsFor(index: number, imei: string): Array<{ mac: string; kind: SensorKind }> {
  const kinds: Record<number, SensorKind[]> = { 2: ['reefer', 'door'], 8: ['reefer', 'door'], 10: ['cabin'], 15: ['door'] };
  const list = kinds[index] ?? (index >= 20 && index % 10 === 3 ? ['cabin'] : []);
  return list.map((kind, n) => ({ mac: bleMac(imei, n), kind }));
}

/** The last stored state of each unit (the ingest keeps it on the units item). */
export async function readLastStates(imeis: readonly string[]): Promise<Map<string, ResumeState>> {
  const found = new Map<string, ResumeState>();
  const table = tableName('units');
  for (let i = 0; i < imeis.length; i += 100) {
    let keys: Array<Record<string, unknown>> | undefined = imeis.slice(i, i + 100).map((imei) => ({ imei }));
    while (keys?.length) {
      const res: BatchGetCommandOutput = await dynamo().send(
        new BatchGetCommand({
          RequestItems: { [table]: { Keys: keys, ProjectionExpression: 'imei, #s', ExpressionAttributeNames: { '#s': 'state' } } },
        }),
      );
      for (const item of res.Responses?.[table] ?? []) {
        const s = item['state'] as Partial<ResumeState> | undefined;
        if (typeof s?.lat === 'number' && typeof s.lon === 'number') found.set(String(item['imei']), s as ResumeState);
      }
      keys = res.UnprocessedKeys?.[table]?.Keys;
    }
  }
  return found;
}

function connect(url: string, clientId: string): MqttClient {
  // A persistent session: commands sent while the tracker reconnects wait on the broker (QoS 1).
  return mqtt.connect(url, { clientId, clean: false, reconnectPeriod: 2_000, connectTimeout: CONNECT_TIMEOUT_MS, keepalive: 60 });
}

export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const clock = options.clock ?? Date.now;
  const log = options.log ?? ((m: string) => console.log(`[simulator] ${m}`));
  const seed = options.seed ?? DEFAULT_SEED;
  const units = simulatedUnits(options.trackers);
  const resume = options.resume && units.length ? await readLastStates(units.map((u) => u.imei)) : new Map<string, ResumeState>();
  const network = new RoadNetwork();
  // Device clocks tick in whole seconds (GNSS time).
  const start = Math.floor(clock() / 1000) * 1000;

  const trackers: SimulatedTracker[] = units.map((unit, index) => {
    const state = resume.get(unit.imei) ?? options.resumeFrom?.get(unit.imei);
    const vehicle = new SimulatedVehicle({
      index,
      imei: unit.imei,
      vehicleType: unit.vehicleType,
      seed: trackerSeed(seed, index),
      start,
      network,
      sensors: sensorsFor(index, unit.imei),
      ...(options.intervals ? { intervals: options.intervals } : {}),
      ...(options.stopMinutes ? { stopMinutes: options.stopMinutes } : {}),
      ...(options.initial ? { initial: options.initial } : {}),
      ...(state ? { resume: state } : {}),
    });
    return { imei: unit.imei, name: unit.name, protocol: unit.protocol, vehicle, client: connect(options.mqttUrl, unit.imei) };
  });

  const reported = new Set<string>();
  for (const t of trackers) {
    t.client.on('connect', () => {
      t.client.subscribe(commandTopic(t.protocol, t.imei), { qos: 1 }, (error) => {
        if (error) log(`${t.imei}: subscribing to commands failed: ${error.message}`);
      });
    });
    t.client.on('message', (_topic, payload) => {
      const reply = answerCommand(t.protocol, t.vehicle, payload);
      if (reply) t.client.publish(reply.topic, reply.payload, { qos: 1 });
    });
    t.client.on('error', (error) => {
      // One line per tracker and kind of error: a broker that is down makes every client retry.
      const key = `${t.imei}:${error.message}`;
      if (!reported.has(key)) {
        reported.add(key);
        log(`${t.imei}: ${error.message}`);
      }
    });
  }

  await Promise.all(
    trackers.map(
      (t) =>
        new Promise<void>((ready, fail) => {
          if (t.client.connected) return ready();
          const timer = setTimeout(() => fail(new Error(`tracker ${t.imei} could not connect to ${options.mqttUrl}`)), CONNECT_TIMEOUT_MS);
          t.client.once('connect', () => {
            clearTimeout(timer);
            ready();
          });
        }),
    ),
  ).catch(async (error: unknown) => {
    await Promise.all(trackers.map((t) => t.client.endAsync(true)));
    throw error;
  });

  const tick = () => {
    const now = clock();
    for (const t of trackers) {
      const records = t.vehicle.advanceTo(now);
      if (!records.length) continue;
      const { topic, payload } = telemetryMessage(t.protocol, t.imei, records);
      t.client.publish(topic, payload, { qos: 1 });
    }
  };
  const timer = setInterval(tick, options.tickMs ?? 1_000);
  tick();
  if (trackers.length) log(`${trackers.length} simulated trackers driving around Stockholm${resume.size ? ` (${resume.size} resumed)` : ''}`);

  return {
    trackers,
    tick,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(trackers.map((t) => t.client.endAsync()));
    },
  };
}
