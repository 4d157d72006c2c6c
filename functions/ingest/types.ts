/**
 * The shapes of the ingest path: one normalized position whatever the tracker family, the unit's
 * latest state (the `state` attribute of its units item) and what a decoder hands back.
 *
 * Every key of `Position` is always present (undefined when the tracker did not report it), so all
 * decoded records share one object shape: cheaper for the engine on the hot path, and
 * `removeUndefinedValues` keeps absent values out of DynamoDB.
 */

import type { StoredUnitState } from '../domain/unit/schema';

export interface BleReading {
  mac: string;
  temp: number | undefined;
  hum: number | undefined;
  door: boolean | undefined;
  /** The sensor's battery in volts (native trackers). */
  bat: number | undefined;
  /** The sensor's battery level in % (Teltonika trackers; absent from native records). */
  batPct?: number | undefined;
}

/** A harsh driving episode the tracker measured (native `harsh`, Teltonika IO 253/254/243). */
export interface HarshReading {
  kind: 'acceleration' | 'braking' | 'cornering';
  /** Peak in g; undefined when not sent. */
  g: number | undefined;
  /** Duration in ms; undefined when not sent. */
  ms: number | undefined;
  /**
   * The tracker decided it against the thresholds the unit's eco sensitivity sent it (Teltonika's
   * green-driving scenario), so it counts as it is; a native record's `g` is checked here.
   */
  byDevice: boolean;
}

/** What a tracker reports about eco driving (shared/eco.ts); absent keys were not reported. */
export interface EcoReading {
  harsh?: HarshReading;
  /** Teltonika IO 251: true when an excessive-idling episode starts, false when it ends. */
  idling?: boolean;
  /** Teltonika IO 255: the speed (km/h) at an over-speeding start or end. */
  overspeedKmh?: number;
  /** Teltonika IO 15: the device's own eco score of the trip, 0..10. */
  deviceScore?: number;
}

/** Digital inputs or outputs by number ("1".."3"). */
export type IoStates = Record<string, boolean>;

export interface Position {
  /** Device time, epoch milliseconds UTC; with the IMEI the identity of a position. */
  ts: number;
  lat: number;
  lon: number;
  /** False when the tracker says it had no GNSS fix (the coordinates are stale or made up). */
  fix: boolean;
  /** km/h */
  speed: number | undefined;
  /** Degrees from north. */
  heading: number | undefined;
  /** Metres. */
  alt: number | undefined;
  sats: number | undefined;
  hdop: number | undefined;
  ignition: boolean | undefined;
  movement: boolean | undefined;
  /** Metres. */
  odometer: number | undefined;
  engineSeconds: number | undefined;
  /** Volts. */
  extVolts: number | undefined;
  /** Volts. */
  batVolts: number | undefined;
  din: IoStates | undefined;
  dout: IoStates | undefined;
  ble: BleReading[] | undefined;
  rfid: string | undefined;
  eco: EcoReading | undefined;
  /**
   * Teltonika: every numbered IO element as reported, for what we do not map (yet), as IoPairs. A
   * number that cannot be stored as one (an 8-byte iButton id beyond 2^53) is kept as its text as
   * sent.
   */
  io: IoPairs | undefined;
}

/**
 * Raw IO elements as the packed position keeps them (functions/ingest/position-codec.ts): a flat
 * array of keys and values, a key that is an integer as that number. Teltonika's elements are
 * numbered, so a key takes one to three bytes instead of a string's two to four, and MessagePack
 * writes a small integer in a fraction of the time it takes for a string: a quarter fewer bytes
 * for a record of 33 elements. An element's value that is an object or an array (no IO element is;
 * a tracker may send one) is kept as its JSON text: MessagePack's decoder refuses a map key
 * `__proto__` at any depth, and one such key would fail every read of the unit's positions. The
 * decoder builds the pairs while it reads a record (functions/ingest/decode-teltonika.ts), and
 * packing a position writes them as they are.
 */
export type IoPairs = unknown[];

/**
 * The latest accepted state of a unit, stored as `state` on its units item and sent live: the
 * fix of the newest position (`ts`, the device time, never moves back) with inputs, outputs,
 * voltages and counters carried over, and `lastSeen`, when the broker received it. The unit item's
 * module owns its schema.
 */
export type UnitState = StoredUnitState;

/** Why a message or a record went to the dead-letter store. */
export type DeadLetterReason =
  | 'MalformedJson'
  | 'UnknownFormat'
  | 'EmptyBatch'
  | 'MissingField'
  | 'WrongType'
  | 'InvalidValue'
  /** A number DynamoDB cannot store: not finite, beyond ±2^53 or below 1e-130 in magnitude. */
  | 'NumberOutOfRange'
  | 'UnknownUnit'
  | 'Unregistered'
  /** The unit's item cannot be read as a unit (functions/domain/unit/schema.ts): its messages wait here, the batch goes on. */
  | 'UnitUnreadable'
  /** A stream batch that spent its retries (the embedded stream, or on AWS the event source mapping's on-failure record). */
  | 'ProcessingFailed'
  /** An IoT rule could not put the message on the ingest stream (its error action). */
  | 'RuleActionFailed'
  /** A message of an unknown shape on the AWS ingest failure queue, kept as it came. */
  | 'UnknownFailure';

export interface DecodeProblem {
  reason: Extract<DeadLetterReason, 'MalformedJson' | 'UnknownFormat' | 'EmptyBatch' | 'MissingField' | 'WrongType' | 'InvalidValue' | 'NumberOutOfRange'>;
  /** The field path and what is wrong with it, for the operator reading the dead letter. */
  detail: string;
}

/** A record of a batch that could not be decoded; the others of the batch still count. */
export interface RejectedRecord extends DecodeProblem {
  /** Position of the record in the message's batch. */
  index: number;
  /** The record as received. */
  raw: unknown;
}

export type Decoded =
  | { kind: 'positions'; protocol: 'native' | 'teltonika'; positions: Position[]; rejected: RejectedRecord[] }
  /** A Teltonika answer to a command (`{ "RSP": "..." }`), not a position. */
  | { kind: 'commandAnswer'; text: string }
  | ({ kind: 'invalid' } & DecodeProblem);
