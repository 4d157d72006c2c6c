/**
 * Teltonika FMB/FMC devices in their AWS JSON mode (docs/api.md "Teltonika trackers"):
 * `{ "state": { "reported": { "ts", "latlng": "lat,lng", "alt", "ang", "sat", "sp", "evt", "<io id>": value } } }`,
 * or an array of such documents for a buffered batch. Firmware sends alt/ang/sat/sp as numbers or
 * as numeric strings (both seen in captured traffic), so both are accepted.
 *
 * IO element ids, from Teltonika's "FMB Teltonika Data Sending Parameters ID" tables
 * (wiki.teltonika-gps.com, e.g. FMB010/FMB910 pages) and as Traccar's TeltonikaProtocolDecoder
 * maps them: 239 ignition, 240 movement, 69 GNSS status (1 = on with fix), 16 total odometer (m),
 * 449 ignition-on counter (s), 66 external voltage (mV), 67 battery voltage (mV), 181/182
 * PDOP/HDOP (x0.1), 1-3 digital inputs, 179/180/380 digital outputs 1-3, 207 RFID, 78 iButton;
 * green driving: 253 type (1 harsh acceleration, 2 harsh braking, 3 harsh cornering), 254 its value
 * (g x 100; older firmware sent g x 10 and a GPS-sourced cornering is rad/s x 100, so the device's
 * own verdict counts and the value is only shown), 243 its duration (ms), 255 over-speeding (the
 * speed at its start and end), 251 excessive idling (1 start, 0 end), 15 the device's eco score
 * (x 0.01, 0..10).
 * Every IO element (and `evt`, the element whose change made the record) is also kept raw in `io`.
 */
import { outOfRange, parseTimestamp, RecordError } from './decode-native';
import { ioKey } from './position-codec';
import { holdsUnstorable, isStorableNumber, RawNumber } from './storable';
import type { BleReading, DecodeProblem, EcoReading, IoPairs, IoStates, Position } from './types';

const IO = {
  din1: '1',
  din2: '2',
  din3: '3',
  odometer: '16',
  extVolts: '66',
  batVolts: '67',
  gnssStatus: '69',
  iButton: '78',
  hdop: '182',
  dout1: '179',
  dout2: '180',
  rfid: '207',
  ignition: '239',
  movement: '240',
  dout3: '380',
  engineSeconds: '449',
  ecoScore: '15',
  greenDuration: '243',
  idling: '251',
  greenType: '253',
  greenValue: '254',
  overspeeding: '255',
} as const;

const GREEN_KINDS = { 1: 'acceleration', 2: 'braking', 3: 'cornering' } as const;

/** The green-driving, over-speeding, idling and eco score elements of a record, or undefined without any. */
function ecoOf(reported: Record<string, unknown>): EcoReading | undefined {
  let eco: EcoReading | undefined;
  const type = ioNum(reported, IO.greenType);
  const kind = type === undefined ? undefined : GREEN_KINDS[type as keyof typeof GREEN_KINDS];
  if (kind) {
    const value = ioNum(reported, IO.greenValue);
    const ms = ioNum(reported, IO.greenDuration);
    (eco ??= {}).harsh = { kind, g: value === undefined || value < 0 ? undefined : value / 100, ms: ms === undefined || ms < 0 ? undefined : ms, byDevice: true };
  }
  const idling = ioNum(reported, IO.idling);
  if (idling === 0 || idling === 1) (eco ??= {}).idling = idling === 1;
  const over = ioNum(reported, IO.overspeeding);
  if (over !== undefined && over >= 0) (eco ??= {}).overspeedKmh = over;
  const score = ioNum(reported, IO.ecoScore);
  if (score !== undefined && score >= 0 && score <= 1000) (eco ??= {}).deviceScore = score / 100;
  return eco;
}

/**
 * FMB BLE sensors 1-4 (the sensors configured in the device, in slot order): temperature in 0.01 C
 * (signed; 2000, 3000 and 4000 are the firmware's error values: data not parsed, sensor not found,
 * abnormal state), humidity in %, battery level in %.
 */
const BLE_SLOTS = [
  { temp: '25', hum: '86', bat: '29' },
  { temp: '26', hum: '104', bat: '20' },
  { temp: '27', hum: '106', bat: '22' },
  { temp: '28', hum: '108', bat: '23' },
] as const;
const BLE_TEMP_ERRORS = new Set([2000, 3000, 4000]);

/** The BLE sensor slots a record reports, as readings of pseudo-MACs `#1`..`#4` (functions/sensors/readings.ts). */
function bleSlots(reported: Record<string, unknown>): BleReading[] | undefined {
  let out: BleReading[] | undefined;
  for (let i = 0; i < BLE_SLOTS.length; i++) {
    const slot = BLE_SLOTS[i]!;
    if (reported[slot.temp] === undefined && reported[slot.hum] === undefined && reported[slot.bat] === undefined) continue;
    const t = ioNum(reported, slot.temp);
    const h = ioNum(reported, slot.hum);
    const b = ioNum(reported, slot.bat);
    const temp = t === undefined || BLE_TEMP_ERRORS.has(t) ? undefined : t / 100;
    const hum = h !== undefined && h >= 0 && h <= 100 ? h : undefined;
    const batPct = b !== undefined && b >= 0 && b <= 100 ? b : undefined;
    if (temp === undefined && hum === undefined && batPct === undefined) continue;
    (out ??= []).push({ mac: `#${i + 1}`, temp, hum, door: undefined, bat: undefined, batPct });
  }
  return out;
}

const DIN_IDS = [IO.din1, IO.din2, IO.din3];
const DOUT_IDS = [IO.dout1, IO.dout2, IO.dout3];

/**
 * Optional groups of elements, each a bit: the pass over a record's keys (ioPairs) notes which it
 * has, and the decoder looks up only those (most records have none of them).
 */
const GROUP = { din: 1, dout: 2, ble: 4, card: 8, eco: 16 } as const;
/** The group bits of each element id (all below 1024). */
const GROUP_OF = new Uint8Array(1024);
for (const [bit, ids] of [
  [GROUP.din, DIN_IDS],
  [GROUP.dout, DOUT_IDS],
  [GROUP.ble, BLE_SLOTS.flatMap((slot) => [slot.temp, slot.hum, slot.bat])],
  [GROUP.card, [IO.rfid, IO.iButton]],
  [GROUP.eco, [IO.ecoScore, IO.greenDuration, IO.idling, IO.greenType, IO.greenValue, IO.overspeeding]],
] as const) {
  for (const id of ids) GROUP_OF[Number(id)]! |= bit;
}

/** GNSS status 1: "GNSS ON with fix"; 0 off, 2 on without fix, 3 sleep, 4 no fix in static navigation. */
const GNSS_WITH_FIX = 1;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RawNumber);

/** A number, or a string holding one, out of range or not (storable.ts); null for anything else. */
function num(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (v instanceof RawNumber) return v.value;
  if (typeof v === 'string' && v !== '') {
    const n = Number(v);
    return Number.isNaN(n) ? null : n;
  }
  return null;
}

function optNum(v: unknown, field: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = num(v);
  if (n === null) throw new RecordError('WrongType', `${field}: expected a number`);
  if (!isStorableNumber(n)) throw outOfRange(field, v);
  return n;
}

/**
 * An IO element we map: tolerant, since firmware variants differ, so a value out of range is
 * not mapped either; the raw value stays in `io`.
 */
function ioNum(reported: Record<string, unknown>, id: string): number | undefined {
  const n = num(reported[id]);
  return n !== null && isStorableNumber(n) ? n : undefined;
}

function ioFlag(reported: Record<string, unknown>, id: string): boolean | undefined {
  const n = ioNum(reported, id);
  return n === undefined ? undefined : n !== 0;
}

function ioStates(reported: Record<string, unknown>, ids: readonly string[]): IoStates | undefined {
  let out: IoStates | undefined;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as string;
    const flag = ioFlag(reported, id);
    if (flag !== undefined) (out ??= {})[String(i + 1)] = flag;
  }
  return out;
}

const hexId = (n: number | bigint): string | undefined => (n > 0 ? n.toString(16).toUpperCase().padStart(16, '0') : undefined);

/** A card or key id: 8 bytes, as a number or a hex string ("0x..."); zero means no card. */
function cardId(v: unknown): string | undefined {
  if (typeof v === 'number') return hexId(v);
  // Beyond 2^53 only the text as sent holds every digit of the id.
  if (v instanceof RawNumber) return /^\d+$/.test(v.source) ? hexId(BigInt(v.source)) : undefined;
  if (typeof v === 'string') {
    const hex = v.replace(/^0x/i, '').toUpperCase();
    return /^[0-9A-F]+$/.test(hex) && /[1-9A-F]/.test(hex) ? hex.padStart(16, '0') : undefined;
  }
  return undefined;
}

/**
 * The GNSS fields mapped onto the position; everything else of `reported` is kept raw, but for an
 * empty name, which no IO element has and DynamoDB refuses (failing the whole batch with it).
 */
const NOT_IO = new Set(['ts', 'latlng', 'alt', 'ang', 'sat', 'sp', '']);

/** Every RawNumber of a parsed value, at any depth, replaced by its text as sent. */
function keepText(value: Record<string, unknown> | unknown[]): void {
  const v = value as Record<string, unknown>;
  for (const key in v) {
    const x = v[key];
    if (x instanceof RawNumber) v[key] = x.source;
    else if (typeof x === 'object' && x !== null) keepText(x as Record<string, unknown>);
  }
}

/**
 * How the numbers of a document were parsed: `exact` with parseExact (storable.ts), so a number
 * out of range is a RawNumber; `plain` with JSON.parse; `checked` with JSON.parse by a caller that
 * parses the text again with parseExact when the decoder throws NeedsExactParse.
 */
export type NumberParse = 'exact' | 'plain' | 'checked';

/** A `checked` document holds a number out of range: the decoder needs its text as sent. */
export class NeedsExactParse extends Error {}

/**
 * The numbered IO elements (and `evt`, `pr`) as reported, as IoPairs: every element of `reported`
 * but the GNSS fields, in one pass over its keys that also finds a number out of range in a
 * `checked` document (so its text need not be searched for one before it is parsed) and notes the
 * optional groups the record has (GROUP). After an exact parse, a number out of range keeps its
 * text as sent. The document is not changed but for an element's object or array value in an
 * exact one, whose numbers out of range become text.
 */
function ioPairs(reported: Record<string, unknown>, parse: NumberParse): { pairs: IoPairs; groups: number } {
  const pairs: unknown[] = [];
  let groups = 0;
  const keys = Object.keys(reported);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const k = ioKey(key);
    if (typeof k === 'number' && k < GROUP_OF.length) groups |= GROUP_OF[k]!;
    const kept = typeof k === 'number' || !NOT_IO.has(k);
    let value = reported[key];
    if (typeof value === 'number') {
      if (parse === 'checked' && !isStorableNumber(value)) throw new NeedsExactParse();
    } else if (typeof value === 'object' && value !== null) {
      if (value instanceof RawNumber) value = value.source;
      else {
        if (parse === 'checked' && holdsUnstorable(value)) throw new NeedsExactParse();
        if (!kept) continue;
        if (parse === 'exact') keepText(value as Record<string, unknown>);
        value = JSON.stringify(value);
      }
    }
    if (kept) pairs.push(k, value);
  }
  return { pairs, groups };
}

function parseLatLng(v: unknown): [number, number] {
  if (v === undefined || v === null) throw new RecordError('MissingField', 'state.reported.latlng: required');
  if (typeof v !== 'string') throw new RecordError('WrongType', 'state.reported.latlng: expected "lat,lng"');
  const comma = v.indexOf(',');
  const lat = comma > 0 ? num(v.slice(0, comma).trim()) : null;
  const lon = comma > 0 ? num(v.slice(comma + 1).trim()) : null;
  if (lat === null || lon === null) throw new RecordError('InvalidValue', 'state.reported.latlng: expected "lat,lng"');
  if (!isStorableNumber(lat) || !isStorableNumber(lon)) throw outOfRange('state.reported.latlng', v);
  return [lat, lon];
}

/** `parse`: how the document's numbers were parsed (NumberParse). */
export function decodeTeltonikaRecord(doc: unknown, parse: NumberParse = 'plain'): Position {
  const state = isObject(doc) ? doc['state'] : undefined;
  const reported = isObject(state) ? state['reported'] : undefined;
  if (!isObject(reported)) throw new RecordError('MissingField', 'state.reported: required');
  // First: in a checked document, a number out of range anywhere in it throws before a field
  // read below names the number as JSON.parse made it.
  const { pairs: io, groups } = ioPairs(reported, parse);

  const tsRaw = reported['ts'];
  const ts = parseTimestamp(typeof tsRaw === 'string' && /^\d+$/.test(tsRaw) ? Number(tsRaw) : tsRaw, 'state.reported.ts');
  const [lat, lon] = parseLatLng(reported['latlng']);
  const sats = optNum(reported['sat'], 'state.reported.sat');
  const gnss = ioNum(reported, IO.gnssStatus);
  const hdop = ioNum(reported, IO.hdop);
  const ext = ioNum(reported, IO.extVolts);
  const bat = ioNum(reported, IO.batVolts);
  return {
    ts,
    lat,
    lon,
    // Traccar's rule for Teltonika (valid = satellites != 0), and the device's own GNSS status when sent.
    fix: sats !== 0 && (gnss === undefined || gnss === GNSS_WITH_FIX),
    speed: optNum(reported['sp'], 'state.reported.sp'),
    heading: optNum(reported['ang'], 'state.reported.ang'),
    alt: optNum(reported['alt'], 'state.reported.alt'),
    sats,
    hdop: hdop === undefined ? undefined : hdop / 10,
    ignition: ioFlag(reported, IO.ignition),
    movement: ioFlag(reported, IO.movement),
    odometer: ioNum(reported, IO.odometer),
    engineSeconds: ioNum(reported, IO.engineSeconds),
    extVolts: ext === undefined ? undefined : ext / 1000,
    batVolts: bat === undefined ? undefined : bat / 1000,
    din: groups & GROUP.din ? ioStates(reported, DIN_IDS) : undefined,
    dout: groups & GROUP.dout ? ioStates(reported, DOUT_IDS) : undefined,
    ble: groups & GROUP.ble ? bleSlots(reported) : undefined,
    rfid: groups & GROUP.card ? (cardId(reported[IO.rfid]) ?? cardId(reported[IO.iButton])) : undefined,
    eco: groups & GROUP.eco ? ecoOf(reported) : undefined,
    io,
  };
}

/** Whether a message is Teltonika's: a `state` document, or an array of them. */
export function isTeltonika(message: unknown): boolean {
  if (Array.isArray(message)) return message.length > 0 && isObject(message[0]) && 'state' in message[0];
  return isObject(message) && 'state' in message;
}

/** A command answer (`{ "RSP": "..." }`) rather than a position. */
export function teltonikaAnswer(message: Record<string, unknown>): string | DecodeProblem | null {
  if (!('RSP' in message)) return null;
  const rsp = message['RSP'];
  return typeof rsp === 'string' ? rsp : { reason: 'WrongType', detail: 'RSP: expected a string' };
}
