/**
 * The load side of `npm run bench:ingest`, in a worker thread so that publishing does not share
 * the runtime's event loop: K simulated trackers, each a real MQTT client with its IMEI as client
 * id, driving the simulator's vehicle model and reporting at a fixed period so that together they
 * publish at the target rate. Every record's publish time is kept and handed back at the end.
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import mqtt, { type MqttClient } from 'mqtt';
import { RoadNetwork } from '../../infra/local/simulator/network';
import { telemetryMessage } from '../../infra/local/simulator/protocol';
import { trackerSeed } from '../../infra/local/simulator/random';
import { sensorsFor } from '../../infra/local/simulator/simulator';
import { SimulatedVehicle } from '../../infra/local/simulator/vehicle';
import type { DemoUnitSpec } from '../../infra/local/seed';

export interface LoadConfig {
  mqttUrl: string;
  units: DemoUnitSpec[];
  /** Records per second, all trackers together. */
  rate: number;
  /** Before the measured window, at a quarter of the rate: the JVM of DynamoDB Local and V8 warm up without a backlog. */
  warmupMs: number;
  durationMs: number;
  seed: number;
}

/** One published record: which tracker (index into units), its device time, and when it was published. */
export interface LoadResult {
  tracker: number[];
  ts: number[];
  sentAt: number[];
  /** True for records of the measured window (after the warm-up). */
  measured: boolean[];
  /** When the first and the last measured record were published. */
  windowStart: number;
  windowEnd: number;
  /** Publishes the broker did not acknowledge (QoS 1). */
  failed: number;
  cpuMs: number;
}

const now = () => performance.timeOrigin + performance.now();
const WARMUP_SLOWDOWN = 4;

async function run(config: LoadConfig): Promise<LoadResult> {
  const k = config.units.length;
  const periodMs = Math.round((k / config.rate) * 1000);
  if (periodMs < 10) throw new Error(`each tracker would report every ${periodMs} ms: use more trackers for this rate`);
  const network = new RoadNetwork();
  const clients: MqttClient[] = await Promise.all(
    config.units.map((u) => mqtt.connectAsync(config.mqttUrl, { clientId: u.imei, clean: true, reconnectPeriod: 0, keepalive: 120 })),
  );

  // Staggered starts spread the trackers' records evenly over each period.
  const t0 = Math.ceil(Date.now() / 1000) * 1000 + 1000;
  const vehicles = config.units.map(
    (u, i) =>
      new SimulatedVehicle({
        index: i,
        imei: u.imei,
        vehicleType: u.vehicleType,
        seed: trackerSeed(config.seed, i),
        start: t0 + Math.round((i * periodMs) / k),
        network,
        sensors: sensorsFor(i, u.imei),
        intervals: { movingS: (WARMUP_SLOWDOWN * periodMs) / 1000, parkedS: (WARMUP_SLOWDOWN * periodMs) / 1000 },
        stepMs: periodMs,
        eventReports: false,
        initial: 'driving',
      }),
  );

  const result: LoadResult = { tracker: [], ts: [], sentAt: [], measured: [], windowStart: 0, windowEnd: 0, failed: 0, cpuMs: 0 };
  const measureFrom = t0 + config.warmupMs;
  const end = measureFrom + config.durationMs;
  const pending: Array<Promise<unknown>> = [];
  const cpu = process.threadCpuUsage();

  let fullRate = false;
  await new Promise<void>((done) => {
    const tick = () => {
      const wall = Date.now();
      if (!fullRate && wall >= measureFrom - periodMs) {
        fullRate = true;
        for (const v of vehicles) v.setReportIntervals({ movingS: periodMs / 1000, parkedS: periodMs / 1000 });
      }
      const until = Math.min(wall, end);
      for (let i = 0; i < k; i++) {
        const v = vehicles[i] as SimulatedVehicle;
        for (const record of v.advanceTo(until)) {
          const unit = config.units[i] as DemoUnitSpec;
          const { topic, payload } = telemetryMessage(unit.protocol, unit.imei, [record]);
          const sentAt = now();
          result.tracker.push(i);
          result.ts.push(record.ts);
          result.sentAt.push(sentAt);
          const inWindow = record.ts >= measureFrom && record.ts < end;
          result.measured.push(inWindow);
          if (inWindow) {
            if (!result.windowStart) result.windowStart = sentAt;
            result.windowEnd = sentAt;
          }
          pending.push((clients[i] as MqttClient).publishAsync(topic, payload, { qos: 1 }).catch(() => result.failed++));
        }
      }
      if (wall >= end) return done();
      setTimeout(tick, 2);
    };
    setTimeout(tick, Math.max(0, t0 - Date.now()));
  });
  await Promise.all(pending);
  const used = process.threadCpuUsage(cpu);
  result.cpuMs = (used.user + used.system) / 1000;
  await Promise.all(clients.map((c) => c.endAsync()));
  return result;
}

if (parentPort) {
  run(workerData as LoadConfig).then(
    (result) => parentPort?.postMessage({ ok: true, result }),
    (error: unknown) => parentPort?.postMessage({ ok: false, error: error instanceof Error ? error.stack : String(error) }),
  );
}
