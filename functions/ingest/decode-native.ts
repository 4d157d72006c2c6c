/**
 * The native JSON protocol (docs/api.md "Tracker protocol"): one record, or `{ "records": [...] }` for a
 * buffered batch. Only ts, lat and lon are required. Hand-written rather than zod on the hot path:
 * it runs once per position, and zod takes about 1.3 microseconds per record where this takes
 * 0.25, a third more CPU for the whole decode + filter + state pipeline (scripts/bench/ingest-cpu.ts).
 * native-schema.ts states the same contract in zod and a test holds the two to the same verdicts.
 */
import { isStorableNumber, numberText, RawNumber, unstorableField } from './storable';
import type { BleReading, DecodeProblem, EcoReading, HarshReading, IoStates, Position, RejectedRecord } from './types';

/** Thrown inside a record's decoding, caught per record: the error path only. */
export class RecordError extends Error {
  constructor(
    readonly reason: DecodeProblem['reason'],
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RawNumber);

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : v instanceof RawNumber ? 'number' : typeof v;
}

/** A number DynamoDB could not store (see storable.ts): its record goes, never its batch. */
export function outOfRange(field: string, v: unknown): RecordError {
  return new RecordError('NumberOutOfRange', `${field}: ${numberText(v)} is out of range`);
}

/** A number: a storable one, or an error. */
function number(v: unknown, field: string): number {
  if (typeof v === 'number') {
    if (!isStorableNumber(v)) throw outOfRange(field, v);
    return v;
  }
  if (v instanceof RawNumber) throw outOfRange(field, v);
  throw new RecordError('WrongType', `${field}: expected a number, got ${typeName(v)}`);
}

/** An optional number: absent or null is undefined; anything else but a storable number is an error. */
export function optNumber(v: unknown, field: string): number | undefined {
  return v === undefined || v === null ? undefined : number(v, field);
}

function reqNumber(v: unknown, field: string): number {
  if (v === undefined || v === null) throw new RecordError('MissingField', `${field}: required`);
  return number(v, field);
}

function optBool(v: unknown, field: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new RecordError('WrongType', `${field}: expected a boolean, got ${typeName(v)}`);
  return v;
}

function optString(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new RecordError('WrongType', `${field}: expected a string, got ${typeName(v)}`);
  return v;
}

// Date.parse alone is too lenient (it rolls 30 February over into March and reads a string
// without a zone in the server's zone); this is the ISO form zod's `iso.datetime({ offset: true })` takes.
const ISO = /^(\d{4})-(0[1-9]|1[0-2])-(\d\d)T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

function isoMillis(v: string): number | null {
  const m = ISO.exec(v);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : ms;
}

/** Device time: epoch milliseconds or an ISO 8601 string with a zone. */
export function parseTimestamp(v: unknown, field: string): number {
  if (v === undefined || v === null) throw new RecordError('MissingField', `${field}: required`);
  if (v instanceof RawNumber) throw outOfRange(field, v);
  if (typeof v === 'number') {
    if (!isStorableNumber(v)) throw outOfRange(field, v);
    if (!Number.isInteger(v) || v < 0) throw new RecordError('InvalidValue', `${field}: not epoch milliseconds`);
    return v;
  }
  if (typeof v === 'string') {
    const ms = isoMillis(v);
    if (ms === null) throw new RecordError('InvalidValue', `${field}: not an ISO 8601 time with a zone`);
    return ms;
  }
  throw new RecordError('WrongType', `${field}: expected epoch milliseconds or an ISO string, got ${typeName(v)}`);
}

const IO_NUMBERS = new Set(['1', '2', '3']);

/** `{ "1": true, ... }` for DIN/DOUT; the parsed object is kept as it is once checked. */
function optIoStates(v: unknown, field: string): IoStates | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw new RecordError('WrongType', `${field}: expected an object, got ${typeName(v)}`);
  for (const key in v) {
    if (!IO_NUMBERS.has(key)) throw new RecordError('InvalidValue', `${field}.${key}: no such ${field.toUpperCase()}`);
    if (typeof v[key] !== 'boolean') throw new RecordError('WrongType', `${field}.${key}: expected a boolean, got ${typeName(v[key])}`);
  }
  return v as IoStates;
}

function optBle(v: unknown): BleReading[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw new RecordError('WrongType', `ble: expected an array, got ${typeName(v)}`);
  const out: BleReading[] = new Array<BleReading>(v.length);
  for (let i = 0; i < v.length; i++) {
    const s: unknown = v[i];
    const at = `ble[${i}]`;
    if (!isObject(s)) throw new RecordError('WrongType', `${at}: expected an object, got ${typeName(s)}`);
    const mac = s['mac'];
    if (mac === undefined || mac === null) throw new RecordError('MissingField', `${at}.mac: required`);
    if (typeof mac !== 'string') throw new RecordError('WrongType', `${at}.mac: expected a string, got ${typeName(mac)}`);
    out[i] = {
      mac,
      temp: optNumber(s['temp'], `${at}.temp`),
      hum: optNumber(s['hum'], `${at}.hum`),
      door: optBool(s['door'], `${at}.door`),
      bat: optNumber(s['bat'], `${at}.bat`),
    };
  }
  return out;
}

const HARSH_KINDS = new Set<string>(['acceleration', 'braking', 'cornering']);

/** `harsh: { kind, g, ms }`: one harsh-driving episode; its `g` is checked against the unit's thresholds later (functions/events/engine.ts). */
function optHarsh(v: unknown): EcoReading | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw new RecordError('WrongType', `harsh: expected an object, got ${typeName(v)}`);
  const kind = v['kind'];
  if (kind === undefined || kind === null) throw new RecordError('MissingField', 'harsh.kind: required');
  if (typeof kind !== 'string' || !HARSH_KINDS.has(kind)) throw new RecordError('InvalidValue', 'harsh.kind: acceleration, braking or cornering');
  const g = optNumber(v['g'], 'harsh.g');
  const ms = optNumber(v['ms'], 'harsh.ms');
  if ((g !== undefined && g < 0) || (ms !== undefined && ms < 0)) throw new RecordError('InvalidValue', 'harsh: g and ms cannot be negative');
  const harsh: HarshReading = { kind: kind as HarshReading['kind'], g, ms, byDevice: false };
  return { harsh };
}

export function decodeNativeRecord(r: unknown): Position {
  if (!isObject(r)) throw new RecordError('WrongType', `record: expected an object, got ${typeName(r)}`);
  const sat = optNumber(r['sat'], 'sat');
  return {
    ts: parseTimestamp(r['ts'], 'ts'),
    lat: reqNumber(r['lat'], 'lat'),
    lon: reqNumber(r['lon'], 'lon'),
    // The native protocol has no fix flag; like most trackers, zero satellites means no fix.
    fix: sat !== 0,
    speed: optNumber(r['spd'], 'spd'),
    heading: optNumber(r['hdg'], 'hdg'),
    alt: optNumber(r['alt'], 'alt'),
    sats: sat,
    hdop: optNumber(r['hdop'], 'hdop'),
    ignition: optBool(r['ign'], 'ign'),
    movement: optBool(r['mov'], 'mov'),
    odometer: optNumber(r['odo'], 'odo'),
    engineSeconds: optNumber(r['hrs'], 'hrs'),
    extVolts: optNumber(r['pwr'], 'pwr'),
    batVolts: optNumber(r['bat'], 'bat'),
    din: optIoStates(r['din'], 'din'),
    dout: optIoStates(r['dout'], 'dout'),
    ble: optBle(r['ble']),
    rfid: optString(r['rfid'], 'rfid'),
    eco: optHarsh(r['harsh']),
    io: undefined,
  };
}

/**
 * Decodes each record on its own, so that one bad record of a buffered batch does not cost the
 * good ones. A record that fails, or whose position holds a number DynamoDB could not store, is
 * returned in `rejected` with its reason; no position leaves here that could fail a write.
 */
export function decodeRecords(
  records: readonly unknown[],
  decodeOne: (r: unknown) => Position,
): { positions: Position[]; rejected: RejectedRecord[] } {
  const positions: Position[] = [];
  const rejected: RejectedRecord[] = [];
  for (let i = 0; i < records.length; i++) {
    try {
      const p = decodeOne(records[i]);
      const unstorable = unstorableField(p);
      if (unstorable !== undefined) throw new RecordError('NumberOutOfRange', unstorable);
      positions.push(p);
    } catch (error) {
      if (!(error instanceof RecordError)) throw error;
      rejected.push({ index: i, raw: records[i], reason: error.reason, detail: error.detail });
    }
  }
  return { positions, rejected };
}

/** The records of a native message: the message itself, or its `records` array. */
export function nativeRecords(message: Record<string, unknown>): unknown[] | DecodeProblem {
  if (!('records' in message)) return [message];
  const records = message['records'];
  if (!Array.isArray(records)) return { reason: 'WrongType', detail: `records: expected an array, got ${typeName(records)}` };
  if (records.length === 0) return { reason: 'EmptyBatch', detail: 'records: empty' };
  return records;
}
