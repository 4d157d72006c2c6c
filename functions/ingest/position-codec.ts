/**
 * How a position is kept in the `positions` table: the keys (`imei`, `ts`), the TTL (`expiresAt`)
 * and the `late` flag as attributes of their own, everything else in one binary attribute `p`,
 * a MessagePack array in POSITION_FIELDS order (absent values nil) ending with the receive time's
 * offset from the device time. A number with up to 9 decimals is written as `[digits, -decimals]`
 * (59.3293234 as [593293234, -7], seven bytes instead of a float's nine).
 *
 * DynamoDB bills an item's storage and its point-in-time recovery by the bytes of its attribute
 * names and values (plus 100 bytes), and positions keep every fix for the accounts' retention:
 * the largest table by far (docs/capacity.md). Fifteen attribute names took about a third of a
 * position's bytes. MessagePack writes small integers in one to five bytes; a decimal reads back
 * as the very double it was written from, and a number that has none short enough stays a
 * 64-bit float.
 *
 * A message's positions are one item, a chunk (`packChunk`): keyed by the oldest, attribute `c`
 * holding each position's time offset and packed fields, since DynamoDB's work and bill go by the
 * item (a position alone costs a write unit and 100 bytes of overhead, a chunk of ten about two).
 *
 * Items written before (every field an attribute of its own) are read as they are:
 * `positionsOfItem` reads every form, and every reader of the table goes through it
 * (position-query.ts).
 */
import { Decoder, Encoder } from '@msgpack/msgpack';
import type { Position } from './types';

// One of each per instance: they keep their buffers between calls.
const encoder = new Encoder({ ignoreUndefined: true });
const decoder = new Decoder();

/** The binary attribute holding the packed fields. */
export const PACKED_ATTRIBUTE = 'p';
/** The binary attribute of a chunk: several positions of one unit in one item (`packChunk`). */
export const CHUNK_ATTRIBUTE = 'c';
/**
 * A chunk holds positions from its key `ts` to at most this much later, so that a reader of a
 * period finds every chunk with a position in it by starting its Query this much earlier: long
 * enough for a buffer of ten records 30 s apart, short enough that the items a reader reads
 * before its period are few.
 */
export const CHUNK_SPAN_MS = 5 * 60_000;
/** The most positions in one chunk: a Teltonika record with its IO elements packs to about 250 bytes. */
export const CHUNK_MAX_POSITIONS = 100;

/** The packed fields, in their order in `p`. Only ever append to this list. */
export const POSITION_FIELDS = ['lat', 'lon', 'speed', 'heading', 'alt', 'sats', 'hdop', 'ignition', 'movement', 'odometer', 'engineSeconds', 'extVolts', 'batVolts', 'din', 'dout', 'ble', 'rfid', 'eco', 'io'] as const;

type PackedField = (typeof POSITION_FIELDS)[number];

/** The fields that always hold a number, written as decimals where that is shorter. */
const NUMERIC = new Set<PackedField>(['lat', 'lon', 'speed', 'heading', 'alt', 'sats', 'hdop', 'odometer', 'engineSeconds', 'extVolts', 'batVolts']);

/** Powers of ten a decimal's exponent may take, each exact as a double. */
const TENS = Array.from({ length: 10 }, (_, k) => 10 ** k);

/**
 * A number as MessagePack keeps it shortest: an integer as it is, a fraction with at most 9
 * decimals as [digits, -decimals] (the fewest that give it back: digits / 10^decimals, one
 * correctly rounded division, is the very double), anything else as the float.
 */
function packNumber(n: number): number | [number, number] {
  if (Number.isSafeInteger(n)) return n;
  for (let k = 1; k < TENS.length; k++) {
    const ten = TENS[k] as number;
    const digits = Math.round(n * ten);
    if (!Number.isSafeInteger(digits)) break;
    if (digits / ten === n) return [digits, -k];
  }
  return n;
}

/**
 * A key that a JS object orders as an integer (up to nine digits, no leading zero) as that number,
 * read in the same pass that checks it; -1 for any other key.
 */
function indexOf(key: string): number {
  const n = key.length;
  if (n === 0 || n > 9) return -1;
  const first = key.charCodeAt(0) - 0x30;
  if (first === 0) return n === 1 ? 0 : -1;
  if (first < 1 || first > 9) return -1;
  let value = first;
  for (let i = 1; i < n; i++) {
    const digit = key.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** An IO element's key in IoPairs: a key that a JS object orders as an integer as that number. */
export function ioKey(key: string): string | number {
  const index = indexOf(key);
  return index < 0 ? key : index;
}

/** The IO elements as an object, from the pairs or from a map as written before them. */
export function ioElements(v: unknown): Record<string, unknown> {
  if (!Array.isArray(v)) return v as Record<string, unknown>;
  const io: Record<string, unknown> = {};
  for (let i = 0; i + 1 < v.length; i += 2) {
    const key = String(v[i]);
    // An element named __proto__ (JSON.parse makes it an own property) stays one, not the prototype.
    if (key === '__proto__') Object.defineProperty(io, key, { value: v[i + 1], enumerable: true, writable: true, configurable: true });
    else io[key] = v[i + 1];
  }
  return io;
}

const unpackNumber = (v: unknown): unknown => (Array.isArray(v) ? (v[0] as number) / (TENS[-(v[1] as number)] ?? 10 ** -(v[1] as number)) : v);

/** A stored position as every reader gets it, whichever form its item has. */
export type StoredPosition = Pick<Position, 'ts' | 'lat' | 'lon'> &
  Partial<Pick<Position, Exclude<PackedField, 'lat' | 'lon' | 'io'>>> & {
    io?: Record<string, unknown>;
    imei?: string;
    /** When the broker received it, epoch ms. */
    receivedAt?: number;
    /** TTL, epoch seconds. */
    expiresAt?: number;
    /** Stored after newer positions of its unit (functions/ingest/repository.ts). */
    late?: boolean;
  };

/** The attributes a Query projects to read positions in any form: the sort key, the packed fields and chunks, and the oldest form's `names`. */
export function positionProjection(names: readonly string[]): { ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> } {
  const all = [...new Set(['ts', PACKED_ATTRIBUTE, CHUNK_ATTRIBUTE, ...names])];
  const ExpressionAttributeNames = Object.fromEntries(all.map((a, i) => [`#p${i}`, a]));
  return { ProjectionExpression: Object.keys(ExpressionAttributeNames).join(', '), ExpressionAttributeNames };
}

const num = (v: number | undefined): number | [number, number] | null => (v === undefined ? null : packNumber(v));
const val = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

/**
 * The packed attribute of a position (`ts` is a key of its own): its fields in POSITION_FIELDS
 * order, each read by name (a read by a computed name costs a lookup per field; the codec's tests
 * check the order against POSITION_FIELDS), then the receive time's offset.
 */
export function packPosition(p: Pick<Position, PackedField>, receivedAt: number, ts: number): Uint8Array {
  const values = [
    num(p.lat), num(p.lon), num(p.speed), num(p.heading), num(p.alt), num(p.sats), num(p.hdop),
    val(p.ignition), val(p.movement), num(p.odometer), num(p.engineSeconds), num(p.extVolts), num(p.batVolts),
    val(p.din), val(p.dout), p.ble === undefined || p.ble.length === 0 ? null : p.ble, val(p.rfid), val(p.eco),
    p.io === undefined ? null : p.io,
    receivedAt - ts,
  ];
  // A copy in Node's buffer pool: `encode` copies into a Uint8Array of its own, an ArrayBuffer
  // allocated per position, which cost about as much as encoding every field but the IO elements.
  return Buffer.from(encoder.encodeSharedRef(values));
}

/**
 * The chunk attribute of positions of one unit, oldest first, the first at the item's key
 * `keyTs` and none more than CHUNK_SPAN_MS after it: for each, its time's offset from the key
 * and then its packed fields (`packPosition`, bytes as they are), one MessagePack value after
 * another.
 */
export function packChunk(keyTs: number, positions: ReadonlyArray<{ ts: number; p: Uint8Array }>): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const { ts, p } of positions) parts.push(encoder.encode(ts - keyTs), p);
  return Buffer.concat(parts);
}

/** The fields of one packed position (`packPosition`) into `out`. */
function unpackFields(values: unknown[], ts: number, out: Record<string, unknown>): void {
  POSITION_FIELDS.forEach((f, i) => {
    const v = values[i];
    if (v !== null && v !== undefined) out[f] = NUMERIC.has(f) ? unpackNumber(v) : f === 'io' ? ioElements(v) : v;
  });
  const offset = values[POSITION_FIELDS.length];
  if (typeof offset === 'number') out['receivedAt'] = ts + offset;
}

/** Every position of a positions item of any form, oldest first: a chunk's several, or the one of any other item. */
export function positionsOfItem(item: Record<string, unknown>): StoredPosition[] {
  const chunk = item[CHUNK_ATTRIBUTE];
  if (!(chunk instanceof Uint8Array)) return [positionOfItem(item)];
  const keyTs = Number(item['ts']);
  const positions: StoredPosition[] = [];
  let ts = keyTs;
  for (const value of decoder.decodeMulti(chunk)) {
    if (typeof value === 'number') {
      ts = keyTs + value;
      continue;
    }
    const out: Record<string, unknown> = typeof item['imei'] === 'string' ? { imei: item['imei'], ts } : { ts };
    unpackFields(value as unknown[], ts, out);
    if (typeof item['expiresAt'] === 'number') out['expiresAt'] = item['expiresAt'];
    positions.push(out as StoredPosition);
  }
  return positions;
}

/** A positions item of a single position, in either of its forms, as a stored position (`positionsOfItem` reads chunks too). */
export function positionOfItem(item: Record<string, unknown>): StoredPosition {
  const packed = item[PACKED_ATTRIBUTE];
  const ts = Number(item['ts']);
  const out: Record<string, unknown> = typeof item['imei'] === 'string' ? { imei: item['imei'], ts } : { ts };
  if (packed instanceof Uint8Array) {
    unpackFields(decoder.decode(packed) as unknown[], ts, out);
  } else {
    for (const f of POSITION_FIELDS) if (item[f] !== undefined) out[f] = item[f];
    if (typeof item['receivedAt'] === 'number') out['receivedAt'] = item['receivedAt'];
  }
  if (typeof item['expiresAt'] === 'number') out['expiresAt'] = item['expiresAt'];
  if (item['late'] === true) out['late'] = true;
  return out as StoredPosition;
}
