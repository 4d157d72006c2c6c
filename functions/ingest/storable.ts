/**
 * Which numbers of a tracker message can be stored, and what a decoder sees of the others.
 *
 * The document client's marshaller refuses NaN, ±Infinity and anything beyond ±2^53 (it could not
 * send it exactly), and DynamoDB itself refuses a magnitude below 1e-130; one such number in a
 * BatchWriteItem fails the request, with the other 24 positions in it. A tracker can send all of
 * them: JSON.parse reads `1e400` as Infinity, and an 8-byte IO value such as an iButton id
 * (1311768467294899695) as the nearest double, whose last digits are gone before a decoder sees it.
 * So a message that may hold such a number is parsed with `parseExact`, and each one reaches the
 * decoders as a RawNumber carrying its text as sent: a measurement rejects its record
 * (NumberOutOfRange), a raw Teltonika IO element keeps the text.
 */
import type { BleReading, Position } from './types';

const MAX = Number.MAX_SAFE_INTEGER;
/** DynamoDB's smallest magnitude; a smaller one is refused ("Number underflow"), not rounded to 0. */
const MIN = 1e-130;

/** False for NaN too: every comparison with it is. */
export function isStorableNumber(v: number): boolean {
  return v <= MAX && v >= -MAX && (v >= MIN || v <= -MIN || v === 0);
}

// The TypeScript lib does not know JSON.parse source text access (ES2025, Node 21+) yet.
interface ReviverContext {
  /** The text of a primitive value as it stood in the document. */
  source?: string;
}
const { rawJSON } = JSON as unknown as { rawJSON(text: string): unknown };

/** A JSON number that is not a storable number, as the tracker wrote it. */
export class RawNumber {
  constructor(
    readonly source: string,
    /** What JSON.parse made of it: Infinity, or a double nearby. */
    readonly value: number,
  ) {}

  /** Written back as sent, so that a dead letter's record shows `1e400`, not `null`. */
  toJSON(): unknown {
    return rawJSON(this.source);
  }
}

/** The text of a value that is out of range, for a dead letter's detail. */
export const numberText = (v: unknown): string => (v instanceof RawNumber ? v.source : String(v));

/**
 * A JSON number is out of range only when written with 16 or more digits before any point (2^53
 * has 16), with an exponent, or as 0. and 129 zeros (below 1e-130): this finds a number token (after
 * `:`, `,` or `[`) written so. A string that only looks like one costs an exact parse, no more.
 * Half the price of a plain parse, where walking every value after it costs a whole one.
 */
const OUT_OF_RANGE_TOKEN = /[:,[]\s*-?(?:\d{16}|\d[\d.]*[eE]|0\.0{129})/;

export function mayHoldOutOfRange(text: string): boolean {
  return OUT_OF_RANGE_TOKEN.test(text);
}

/**
 * Whether a value JSON.parse made holds a number that is not storable, at any depth: where
 * parseExact would have kept a RawNumber.
 */
export function holdsUnstorable(value: unknown): boolean {
  if (typeof value === 'number') return !isStorableNumber(value);
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  for (const key in v) if (holdsUnstorable(v[key])) return true;
  return false;
}

/** JSON.parse, with every number that is not storable kept as a RawNumber. */
export function parseExact(text: string): unknown {
  return JSON.parse(text, (_key: string, value: unknown, context?: ReviverContext) =>
    typeof value === 'number' && !isStorableNumber(value) && context?.source !== undefined ? new RawNumber(context.source, value) : value,
  );
}

/** The numbers a position carries besides its raw `io`. */
const POSITION_NUMBERS = ['ts', 'lat', 'lon', 'speed', 'heading', 'alt', 'sats', 'hdop', 'odometer', 'engineSeconds', 'extVolts', 'batVolts'] as const;
const BLE_NUMBERS = ['temp', 'hum', 'bat'] as const;
const ok = (v: number | undefined): boolean => v === undefined || isStorableNumber(v);

/**
 * The last check before a position is planned and written, whatever decoded it: the first field
 * DynamoDB could not store, with its value, or undefined. Named fields only, as walking every key of
 * every item costs as much again as the whole decode: a number among the raw `io` elements is
 * storable, or it was out of range and is kept as its text (mayHoldOutOfRange).
 */
export function unstorableField(p: Position): string | undefined {
  // Every field read by name first (a read by a computed name costs a lookup per field, on every
  // position); only a position with a number out of range walks the list to name it.
  const fine =
    ok(p.ts) && ok(p.lat) && ok(p.lon) && ok(p.speed) && ok(p.heading) && ok(p.alt) && ok(p.sats) && ok(p.hdop) &&
    ok(p.odometer) && ok(p.engineSeconds) && ok(p.extVolts) && ok(p.batVolts);
  for (let i = 0; !fine && i < POSITION_NUMBERS.length; i++) {
    const field = POSITION_NUMBERS[i] as (typeof POSITION_NUMBERS)[number];
    const v = p[field];
    if (v !== undefined && !isStorableNumber(v)) return `${field}: ${v} is out of range`;
  }
  const ble = p.ble;
  for (let i = 0; ble && i < ble.length; i++) {
    for (const field of BLE_NUMBERS) {
      const v = (ble[i] as BleReading)[field];
      if (v !== undefined && !isStorableNumber(v)) return `ble[${i}].${field}: ${v} is out of range`;
    }
  }
  return undefined;
}
