/**
 * The load side of `npm run bench:ingest`, in a child process so that publishing shares neither
 * the runtime's event loop nor its file descriptors: K simulated trackers, each a real MQTT client with its IMEI as client
 * id, driving the simulator's vehicle model and recording at a fixed period so that together they
 * record at the target rate. A tracker publishes each record at once, or, with R records per
 * message, buffers R and publishes them as one batch (`{ "records": [...] }`), as real trackers
 * do; the trackers' buffers are staggered so that messages, too, spread evenly. Every record's
 * publish time is kept and handed back at the end.
 */
import { performance } from 'node:perf_hooks';
import mqtt, { type MqttClient } from 'mqtt';
import { RoadNetwork } from '../../infra/local/simulator/network';
import { telemetryMessage } from '../../infra/local/simulator/protocol';
import { trackerSeed } from '../../infra/local/simulator/random';
import { sensorsFor } from '../../infra/local/simulator/simulator';
import { SimulatedVehicle, type TrackerRecord } from '../../infra/local/simulator/vehicle';
import type { DemoUnitSpec } from '../../infra/local/seed';

export interface LoadConfig {
  mqttUrl: string;
  units: DemoUnitSpec[];
  /** Records per second, all trackers together. */
  rate: number;
  /** Records per published message: 1, or a buffered batch. */
  recordsPerMessage: number;
  /**
   * Before the measured window: its first half at a quarter of the rate, so that the JVM of
   * DynamoDB Local and V8 compile their hot paths without a backlog, then at the full rate, so
   * that the window measures the steady state and not the step up to it.
   */
  warmupMs: number;
  durationMs: number;
  seed: number;
}

/** One published record: which tracker (index into units), its device time, and when it was published. */
export interface LoadResult {
  tracker: number[];
  ts: number[];
  sentAt: number[];
  /** True for records of messages published in the measured window (after the warm-up). */
  measured: boolean[];
  /** When the first and the last measured record were published. */
  windowStart: number;
  windowEnd: number;
  /** Records of publishes the broker did not acknowledge (QoS 1). */
  failed: number;
  /** MQTT messages published, and those holding measured records. */
  messages: number;
  measuredMessages: number;
  /** CPU of this thread from the start of the measured window to the last acknowledgement. */
  windowCpuMs: number;
  cpuMs: number;
}

const now = () => performance.timeOrigin + performance.now();
const WARMUP_SLOWDOWN = 4;

async function run(config: LoadConfig): Promise<{ result: LoadResult; close(): Promise<void> }> {
  const k = config.units.length;
  const perMessage = config.recordsPerMessage;
  const periodMs = Math.round((k / config.rate) * 1000);
  if (periodMs < 10) throw new Error(`each tracker would report every ${periodMs} ms: use more trackers for this rate`);
  const network = new RoadNetwork();
  // A few hundred connections at a time: ten thousand at once overflow the listen backlog (ECONNRESET).
  const clients: MqttClient[] = [];
  for (let i = 0; i < config.units.length; i += 250) {
    clients.push(
      ...(await Promise.all(
        config.units.slice(i, i + 250).map((u) => mqtt.connectAsync(config.mqttUrl, { clientId: u.imei, clean: true, reconnectPeriod: 0, keepalive: 120 })),
      )),
    );
  }

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

  const result: LoadResult = { tracker: [], ts: [], sentAt: [], measured: [], windowStart: 0, windowEnd: 0, failed: 0, messages: 0, measuredMessages: 0, windowCpuMs: 0, cpuMs: 0 };
  const measureFrom = t0 + config.warmupMs;
  const end = measureFrom + config.durationMs;
  const pending: Array<Promise<unknown>> = [];
  const cpu = process.threadCpuUsage();
  // Tracker i first publishes after (i mod R) + 1 records, then every R: messages spread evenly.
  const buffers = config.units.map((_, i) => ({ records: [] as TrackerRecord[], size: (i % perMessage) + 1 }));
  /** Measured: the records of the messages published inside the window. */
  const publish = (i: number, records: TrackerRecord[], wall: number) => {
    const unit = config.units[i] as DemoUnitSpec;
    const { topic, payload } = telemetryMessage(unit.protocol, unit.imei, records);
    const sentAt = now();
    const inWindow = wall >= measureFrom && wall < end;
    for (const record of records) {
      result.tracker.push(i);
      result.ts.push(record.ts);
      result.sentAt.push(sentAt);
      result.measured.push(inWindow);
    }
    result.messages++;
    if (inWindow) {
      result.measuredMessages++;
      if (!result.windowStart) result.windowStart = sentAt;
      result.windowEnd = sentAt;
    }
    pending.push((clients[i] as MqttClient).publishAsync(topic, payload, { qos: 1 }).catch(() => (result.failed += records.length)));
  };

  let fullRate = false;
  /** The tracker whose step is due first. */
  let next = 0;
  let windowCpu: NodeJS.CpuUsage | undefined;
  await new Promise<void>((done) => {
    const tick = () => {
      const wall = Date.now();
      if (!fullRate && wall >= measureFrom - config.warmupMs / 2 - periodMs) {
        fullRate = true;
        for (const v of vehicles) v.setReportIntervals({ movingS: periodMs / 1000, parkedS: periodMs / 1000 });
      }
      if (!windowCpu && wall >= measureFrom) {
        windowCpu = process.threadCpuUsage();
        // The runtime starts counting its CPU now too.
        process.send?.({ kind: 'window' });
      }
      const until = Math.min(wall, end);
      // Only the trackers whose step is due: every vehicle steps by the same period from staggered
      // starts, so their order of steps is the same in every round and a cursor walks it. Asking
      // all ten thousand every 2 ms took the load generator a fifth of a core, which the runtime
      // it measures shares.
      for (let visited = 0; visited < k; visited++) {
        const i = next;
        const v = vehicles[i] as SimulatedVehicle;
        if (v.now + periodMs > until) break;
        const buffer = buffers[i] as (typeof buffers)[number];
        for (const record of v.advanceTo(until)) {
          buffer.records.push(record);
          if (buffer.records.length >= buffer.size) {
            publish(i, buffer.records, wall);
            buffer.records = [];
            buffer.size = perMessage;
          }
        }
        next = (i + 1) % k;
      }
      if (wall >= end) return done();
      setTimeout(tick, 2);
    };
    setTimeout(tick, Math.max(0, t0 - Date.now()));
  });
  await Promise.all(pending);
  const used = process.threadCpuUsage(cpu);
  result.cpuMs = (used.user + used.system) / 1000;
  if (windowCpu) {
    const inWindow = process.threadCpuUsage(windowCpu);
    result.windowCpuMs = (inWindow.user + inWindow.system) / 1000;
  }
  return { result, close: () => Promise.all(clients.map((c) => c.endAsync())).then(() => undefined) };
}

if (process.send) {
  const send = (message: unknown) => process.send?.(message);
  process.once('message', (first: { kind: 'config'; config: LoadConfig }) => {
    run(first.config).then(
      ({ result, close }) => {
        // The trackers stay connected until the parent has seen the pipeline drain: a thousand
        // disconnects at once would land on the broker while the last messages are handled, and
        // measure the broker's goodbyes instead of ingest.
        process.once('message', () => void close().then(() => send({ kind: 'closed' })));
        send({ kind: 'done', ok: true, result });
      },
      (error: unknown) => send({ kind: 'done', ok: false, error: error instanceof Error ? error.stack : String(error) }),
    );
  });
}
