/**
 * The bytes a simulated tracker exchanges, per family (docs/api.md "Tracker protocol" and "Teltonika
 * trackers"): its records on the telemetry topic, and its answers to commands. A native tracker
 * publishes through Basic Ingest as `npm run provision` configures it (the rules named as the
 * embedded runtime names them); a Teltonika device on its default data topic. The command side
 * reads exactly what functions/platform/adapters/device-encoding.ts sends, with the same schemas.
 */
import type { DeviceProtocol } from '../../../functions/platform/adapters/device-encoding';
import { doutParamsSchema, ecoThresholdParamsSchema, operatingModeParamsSchema, rfidPairParamsSchema, sensorPairParamsSchema } from '../../../shared/schemas/commands';
import { EMBEDDED_STACK_NAME, trackerBasicIngestTopics } from '../../../shared/iot-rules';
import type { SimulatedVehicle, TrackerRecord } from './vehicle';

export interface Outgoing {
  topic: string;
  payload: string;
}

export { commandTopic, telemetryTopic } from '../../../shared/mqtt-topics';
import { telemetryTopic, trackerTopic } from '../../../shared/mqtt-topics';

/** A native tracker's Basic Ingest topic for `name` (shared/iot-rules.ts), as provisioned. */
function nativeTopic(name: 'telemetry' | 'ack', imei: string): string {
  return trackerBasicIngestTopics(EMBEDDED_STACK_NAME, imei)[name] ?? trackerTopic(name, imei);
}

export function nativeRecord(r: TrackerRecord): Record<string, unknown> {
  return {
    ts: r.ts,
    lat: r.lat,
    lon: r.lon,
    spd: r.speedKmh,
    hdg: r.heading,
    alt: r.alt,
    sat: r.sats,
    hdop: r.hdop,
    ign: r.ignition,
    mov: r.moving,
    odo: r.odometerM,
    hrs: r.engineS,
    ...(r.extVolts === undefined ? {} : { pwr: r.extVolts }),
    bat: r.batVolts,
    din: r.din,
    dout: r.dout,
    ...(r.ble.length ? { ble: r.ble } : {}),
    ...(r.harsh ? { harsh: r.harsh } : {}),
  };
}

/** Teltonika's green-driving type (IO 253) of each harsh kind. */
const GREEN_DRIVING_TYPE: Record<NonNullable<TrackerRecord['harsh']>['kind'], number> = { acceleration: 1, braking: 2, cornering: 3 };

/** Teltonika event ids (the IO element that triggered a record); 0 is a periodic record. */
const TELTONIKA_EVENT: Record<TrackerRecord['cause'], number> = { periodic: 0, ignition: 239, turn: 0, output: 179, door: 0, harsh: 253 };

/**
 * A Teltonika FMB record in its AWS JSON form: position fields as the firmware sends them (numbers
 * as strings) and numbered IO elements (ids as in functions/ingest/decode-teltonika.ts).
 */
export function teltonikaRecord(r: TrackerRecord): Record<string, unknown> {
  const reported: Record<string, unknown> = {
    ts: r.ts,
    pr: 0,
    latlng: `${r.lat},${r.lon}`,
    alt: String(r.alt),
    ang: String(r.heading),
    sat: String(r.sats),
    sp: String(Math.round(r.speedKmh)),
    evt: String(TELTONIKA_EVENT[r.cause]),
    '239': r.ignition ? 1 : 0,
    '240': r.moving ? 1 : 0,
    '21': 4,
    '69': 1,
    '181': Math.round(r.hdop * 13),
    '182': Math.round(r.hdop * 10),
    '16': r.odometerM,
    '449': r.engineS,
    '67': Math.round(r.batVolts * 1000),
    '1': r.ignition ? 1 : 0,
    '2': r.din['2'] ? 1 : 0,
    '3': r.din['3'] ? 1 : 0,
    '179': r.dout['1'] ? 1 : 0,
    '180': r.dout['2'] ? 1 : 0,
    '380': r.dout['3'] ? 1 : 0,
  };
  if (r.extVolts !== undefined) reported['66'] = Math.round(r.extVolts * 1000);
  if (r.harsh) {
    // Green driving: its type, its value in g x 100 (accelerometer source), its duration in ms.
    reported['253'] = GREEN_DRIVING_TYPE[r.harsh.kind];
    reported['254'] = Math.round(r.harsh.g * 100);
    reported['243'] = r.harsh.ms;
  }
  return { state: { reported } };
}

/** One message for the records due at once: a single record, or a buffered batch. */
export function telemetryMessage(protocol: DeviceProtocol, imei: string, records: readonly TrackerRecord[]): Outgoing {
  const topic = protocol === 'native' ? nativeTopic('telemetry', imei) : telemetryTopic(protocol, imei);
  if (protocol === 'native') {
    const body = records.length === 1 ? nativeRecord(records[0] as TrackerRecord) : { records: records.map(nativeRecord) };
    return { topic, payload: JSON.stringify(body) };
  }
  const docs = records.map(teltonikaRecord);
  return { topic, payload: JSON.stringify(docs.length === 1 ? docs[0] : docs) };
}

/**
 * A native command (`{ id, type, params }`) applied to the vehicle, and the acknowledgement to
 * send on trackers/{imei}/ack. Null when the message has no id to answer to.
 */
export function answerNativeCommand(vehicle: SimulatedVehicle, payload: Buffer | string): Outgoing | null {
  let command: unknown;
  try {
    command = JSON.parse(payload.toString());
  } catch {
    return null;
  }
  if (typeof command !== 'object' || command === null) return null;
  const { id, type, params } = command as { id?: unknown; type?: unknown; params?: unknown };
  if (typeof id !== 'string' || id === '') return null;
  const ack = (ok: boolean, error?: string): Outgoing => ({
    topic: nativeTopic('ack', vehicle.imei),
    payload: JSON.stringify(ok ? { id, ok } : { id, ok, error }),
  });
  switch (type) {
    case 'dout': {
      const p = doutParamsSchema.safeParse(params);
      if (!p.success) return ack(false, 'InvalidParams');
      vehicle.setOutput(p.data.output as 1 | 2 | 3, p.data.on, p.data.durationSeconds);
      return ack(true);
    }
    case 'operatingMode': {
      const p = operatingModeParamsSchema.safeParse(params);
      if (!p.success) return ack(false, 'InvalidParams');
      vehicle.setOperatingMode(p.data.mode);
      return ack(true);
    }
    case 'pairRfid': {
      // The simulated RFID reader takes (or forgets) any well-formed card.
      const p = rfidPairParamsSchema.safeParse(params);
      return p.success ? ack(true) : ack(false, 'InvalidParams');
    }
    case 'ecoThresholds': {
      // The simulated tracker reports no harsh driving of its own; it takes any well-formed thresholds.
      const p = ecoThresholdParamsSchema.safeParse(params);
      return p.success ? ack(true) : ack(false, 'InvalidParams');
    }
    case 'pairSensor':
    case 'unpairSensor': {
      const p = sensorPairParamsSchema.safeParse(params);
      if (!p.success) return ack(false, 'InvalidParams');
      // A tracker pairs only a sensor it can hear; forgetting one always works.
      if (type === 'pairSensor' && !vehicle.hasSensor(p.data.mac)) return ack(false, 'SensorNotFound');
      return ack(true);
    }
    default:
      return ack(false, 'UnsupportedCommand');
  }
}

/** FMB `setdigout XYZ [t1 t2 t3]`: the answer lists each output as the device does. */
function setdigout(vehicle: SimulatedVehicle, args: string[]): string | null {
  const states = args[0];
  if (!states || !/^[01?]{1,3}$/.test(states)) return null;
  const parts: string[] = [];
  for (let i = 0; i < 3; i++) {
    const state = states[i] ?? '?';
    if (state === '?') {
      parts.push(`DOUT${i + 1}:IGNORED`);
      continue;
    }
    const timeout = Number(args[1 + i]);
    const seconds = Number.isInteger(timeout) && timeout > 0 ? timeout : undefined;
    vehicle.setOutput((i + 1) as 1 | 2 | 3, state === '1', seconds);
    parts.push(`DOUT${i + 1}:${state === '1' ? 'ON' : 'OFF'} Timeout:${state === '1' && seconds ? `${seconds}s` : 'INFINITY'}`);
  }
  return parts.join(' ');
}

/** Stop/moving record periods of the Home, Roaming and Unknown network profiles (see device-encoding.ts). */
const STOP_PERIOD_IDS = new Set(['10000', '10100', '10200']);
const MOVING_PERIOD_IDS = new Set(['10050', '10150', '10250']);

/** FMB `setparam id:value;id:value`: the record periods take effect; the answer echoes the new values. */
function setparam(vehicle: SimulatedVehicle, args: string[]): string | null {
  const pairs = args.join(' ').split(';').map((p) => p.split(':').map((x) => x.trim()));
  if (!pairs.length || pairs.some((p) => p.length !== 2 || !/^\d+$/.test(p[0] ?? '') || p[1] === '')) return null;
  let stop: number | undefined;
  let moving: number | undefined;
  for (const [id, value] of pairs as Array<[string, string]>) {
    const n = Number(value);
    if (STOP_PERIOD_IDS.has(id) && n > 0) stop = n;
    if (MOVING_PERIOD_IDS.has(id) && n > 0) moving = n;
  }
  if (stop !== undefined || moving !== undefined) {
    const now = vehicle.reportIntervals;
    vehicle.setReportIntervals({ movingS: moving ?? now.movingS, parkedS: stop ?? now.parkedS });
  }
  return `New value ${pairs.map(([id, value]) => `${id}:${value}`).join(';')}`;
}

/**
 * A Teltonika command (`{ "CMD": "..." }`) applied to the vehicle, and its answer `{ "RSP": "..." }`
 * on {imei}/data. Commands the device does not know get no answer.
 */
export function answerTeltonikaCommand(vehicle: SimulatedVehicle, payload: Buffer | string): Outgoing | null {
  let message: unknown;
  try {
    message = JSON.parse(payload.toString());
  } catch {
    return null;
  }
  const text = typeof message === 'object' && message !== null ? (message as { CMD?: unknown }).CMD : undefined;
  if (typeof text !== 'string') return null;
  const [name, ...args] = text.trim().split(/\s+/);
  const rsp = name === 'setdigout' ? setdigout(vehicle, args) : name === 'setparam' ? setparam(vehicle, args) : null;
  return rsp === null ? null : { topic: `${vehicle.imei}/data`, payload: JSON.stringify({ RSP: rsp }) };
}

export function answerCommand(protocol: DeviceProtocol, vehicle: SimulatedVehicle, payload: Buffer | string): Outgoing | null {
  return protocol === 'native' ? answerNativeCommand(vehicle, payload) : answerTeltonikaCommand(vehicle, payload);
}
