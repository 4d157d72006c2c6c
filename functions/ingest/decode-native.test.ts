import { describe, expect, it } from 'vitest';
import { decodeMessage, decodeParsed } from './decode';
import { decodeNativeRecord, RecordError } from './decode-native';
import { nativeBatchSchema, nativeRecordSchema } from './native-schema';
import type { Decoded, Position } from './types';

const json = (v: unknown) => Buffer.from(JSON.stringify(v));

function positionsOf(d: Decoded) {
  if (d.kind !== 'positions') throw new Error(`expected positions, got ${d.kind}`);
  return d;
}

describe('native decoder', () => {
  it('decodes a full record into the normalized position', () => {
    const d = positionsOf(
      decodeMessage(
        json({
          ts: 1_714_557_600_000,
          lat: 59.3293,
          lon: 18.0686,
          spd: 42.5,
          hdg: 270,
          alt: 28,
          sat: 11,
          hdop: 0.8,
          ign: true,
          mov: true,
          odo: 123_456_789,
          hrs: 360_000,
          pwr: 13.8,
          bat: 4.1,
          din: { '2': true, '3': false },
          dout: { '1': false, '2': true, '3': false },
          ble: [{ mac: '7C:D9:F4:41:00:01', temp: 4.5, hum: 61, door: false, bat: 3 }],
          rfid: '00A1B2C3',
        }),
      ),
    );
    expect(d.protocol).toBe('native');
    expect(d.rejected).toEqual([]);
    expect(d.positions).toEqual<Position[]>([
      {
        ts: 1_714_557_600_000,
        lat: 59.3293,
        lon: 18.0686,
        fix: true,
        speed: 42.5,
        heading: 270,
        alt: 28,
        sats: 11,
        hdop: 0.8,
        ignition: true,
        movement: true,
        odometer: 123_456_789,
        engineSeconds: 360_000,
        extVolts: 13.8,
        batVolts: 4.1,
        din: { '2': true, '3': false },
        dout: { '1': false, '2': true, '3': false },
        ble: [{ mac: '7C:D9:F4:41:00:01', temp: 4.5, hum: 61, door: false, bat: 3 }],
        rfid: '00A1B2C3',
        eco: undefined,
        io: undefined,
      },
    ]);
  });

  it('needs only ts, lat and lon; an ISO time with a zone is read as UTC', () => {
    const [p] = positionsOf(decodeMessage(json({ ts: '2024-05-01T12:00:00+02:00', lat: 1.5, lon: -2.25 }))).positions;
    expect(p).toMatchObject({ ts: Date.UTC(2024, 4, 1, 10), lat: 1.5, lon: -2.25, fix: true, speed: undefined, ignition: undefined });
  });

  it('takes zero satellites as no fix', () => {
    expect(decodeNativeRecord({ ts: 1, lat: 1, lon: 1, sat: 0 }).fix).toBe(false);
    expect(decodeNativeRecord({ ts: 1, lat: 1, lon: 1, sat: 4 }).fix).toBe(true);
  });

  it('decodes a buffered batch record by record, keeping the good ones when one is bad', () => {
    const d = positionsOf(
      decodeMessage(
        json({
          records: [
            { ts: 3000, lat: 10, lon: 20 },
            { ts: 1000, lat: '10', lon: 20 },
            { ts: 2000, lat: 11, lon: 21, ign: false },
          ],
        }),
      ),
    );
    expect(d.positions.map((p) => p.ts)).toEqual([3000, 2000]);
    expect(d.rejected).toEqual([{ index: 1, raw: { ts: 1000, lat: '10', lon: 20 }, reason: 'WrongType', detail: 'lat: expected a number, got string' }]);
  });

  it('rejects a record with a number DynamoDB cannot store, and only that record, showing it as sent', () => {
    // JSON.stringify cannot write these numbers: the text is what a tracker sends.
    const text = `{"records":[
      {"ts":1000,"lat":59.1,"lon":18.1},
      {"ts":2000,"lat":1e400,"lon":18.2},
      {"ts":3000,"lat":59.3,"lon":18.3,"odo":12345678901234567890},
      {"ts":4000,"lat":59.4,"lon":18.4,"spd":-1E400,"ble":[{"mac":"AA","temp":1e-200}]},
      {"ts":5000,"lat":59.5,"lon":18.5,"ble":[{"mac":"AA","temp":1e-200}]},
      {"ts":6000,"lat":59.6,"lon":18.6,"pwr":13.9}
    ]}`;
    const d = positionsOf(decodeMessage(Buffer.from(text)));
    expect(d.positions.map((p) => [p.ts, p.lat])).toEqual([
      [1000, 59.1],
      [6000, 59.6],
    ]);
    expect(d.rejected.map(({ index, reason, detail }) => ({ index, reason, detail }))).toEqual([
      { index: 1, reason: 'NumberOutOfRange', detail: 'lat: 1e400 is out of range' },
      { index: 2, reason: 'NumberOutOfRange', detail: 'odo: 12345678901234567890 is out of range' },
      { index: 3, reason: 'NumberOutOfRange', detail: 'spd: -1E400 is out of range' },
      { index: 4, reason: 'NumberOutOfRange', detail: 'ble[0].temp: 1e-200 is out of range' },
    ]);
    // The dead letter of a record keeps it as sent, not as JSON.parse made it (Infinity would print as null).
    expect(JSON.stringify(d.rejected[0]?.raw)).toBe('{"ts":2000,"lat":1e400,"lon":18.2}');
  });

  it("decodes a harsh-driving episode (`harsh`) for the unit's thresholds to judge, and refuses a malformed one", () => {
    const [p] = positionsOf(decodeMessage(json({ ts: 1, lat: 1, lon: 1, harsh: { kind: 'braking', g: 0.42, ms: 640 } }))).positions;
    expect(p?.eco).toEqual({ harsh: { kind: 'braking', g: 0.42, ms: 640, byDevice: false } });
    expect(decodeNativeRecord({ ts: 1, lat: 1, lon: 1, harsh: { kind: 'cornering' } }).eco).toEqual({ harsh: { kind: 'cornering', g: undefined, ms: undefined, byDevice: false } });
    expect(decodeNativeRecord({ ts: 1, lat: 1, lon: 1 }).eco).toBeUndefined();
    expect(() => decodeNativeRecord({ ts: 1, lat: 1, lon: 1, harsh: { kind: 'drift', g: 0.4 } })).toThrow(new RecordError('InvalidValue', 'harsh.kind: acceleration, braking or cornering'));
    expect(() => decodeNativeRecord({ ts: 1, lat: 1, lon: 1, harsh: { g: 0.4 } })).toThrow(new RecordError('MissingField', 'harsh.kind: required'));
    expect(() => decodeNativeRecord({ ts: 1, lat: 1, lon: 1, harsh: { kind: 'braking', g: -0.4 } })).toThrow(new RecordError('InvalidValue', 'harsh: g and ms cannot be negative'));
    expect(() => decodeNativeRecord({ ts: 1, lat: 1, lon: 1, harsh: 'hard' })).toThrow(new RecordError('WrongType', 'harsh: expected an object, got string'));
  });

  it('rejects a lone record with lat 1e400 rather than hand on Infinity', () => {
    const d = positionsOf(decodeMessage(Buffer.from('{"ts":1714557600000,"lat":1e400,"lon":18.0686,"sat":9}')));
    expect(d.positions).toEqual([]);
    expect(d.rejected).toMatchObject([{ index: 0, reason: 'NumberOutOfRange', detail: 'lat: 1e400 is out of range' }]);
    // The same, however the value reaches the decoder.
    expect(() => decodeNativeRecord({ ts: 1, lat: Infinity, lon: 1 })).toThrow('lat: Infinity is out of range');
    expect(() => decodeNativeRecord({ ts: 1, lat: 1, lon: 1, hdop: 1e-200 })).toThrow(new RecordError('NumberOutOfRange', 'hdop: 1e-200 is out of range'));
  });

  it.each([
    ['not JSON', Buffer.from('{"ts": 1, "lat":'), 'MalformedJson'],
    ['a JSON string', json('hello'), 'UnknownFormat'],
    ['a JSON number', json(42), 'UnknownFormat'],
    ['a JSON number out of range', Buffer.from('1e400'), 'UnknownFormat'],
    ['an empty batch', json({ records: [] }), 'EmptyBatch'],
    ['records not an array', json({ records: { ts: 1 } }), 'WrongType'],
  ])('refuses %s as a whole message', (_name, payload, reason) => {
    expect(decodeMessage(payload)).toMatchObject({ kind: 'invalid', reason });
  });

  it.each([
    [{ lat: 1, lon: 1 }, 'MissingField', 'ts: required'],
    [{ ts: 1, lon: 1 }, 'MissingField', 'lat: required'],
    [{ ts: 1, lat: 1 }, 'MissingField', 'lon: required'],
    [{ ts: 1, lat: 1, lon: 1, spd: '50' }, 'WrongType', 'spd: expected a number, got string'],
    [{ ts: 1, lat: 1, lon: 1, ign: 1 }, 'WrongType', 'ign: expected a boolean, got number'],
    [{ ts: true, lat: 1, lon: 1 }, 'WrongType', 'ts: expected epoch milliseconds or an ISO string, got boolean'],
    [{ ts: -5, lat: 1, lon: 1 }, 'InvalidValue', 'ts: not epoch milliseconds'],
    [{ ts: 1.5, lat: 1, lon: 1 }, 'InvalidValue', 'ts: not epoch milliseconds'],
    [{ ts: '2024-05-01T10:00:00', lat: 1, lon: 1 }, 'InvalidValue', 'ts: not an ISO 8601 time with a zone'],
    [{ ts: '2024-02-30T10:00:00Z', lat: 1, lon: 1 }, 'InvalidValue', 'ts: not an ISO 8601 time with a zone'],
    [{ ts: 1, lat: 1, lon: 1, din: { '4': true } }, 'InvalidValue', 'din.4: no such DIN'],
    [{ ts: 1, lat: 1, lon: 1, dout: { '1': 'on' } }, 'WrongType', 'dout.1: expected a boolean, got string'],
    [{ ts: 1, lat: 1, lon: 1, ble: [{ temp: 3 }] }, 'MissingField', 'ble[0].mac: required'],
    [{ ts: 1, lat: 1, lon: 1, rfid: 1234 }, 'WrongType', 'rfid: expected a string, got number'],
  ])('rejects the record %j: %s', (record, reason, detail) => {
    const d = positionsOf(decodeParsed(record));
    expect(d.positions).toEqual([]);
    expect(d.rejected).toEqual([{ index: 0, raw: record, reason, detail }]);
  });
});

/**
 * The contract test: the hand-written decoder and the zod schema of the same contract must agree
 * on every record, valid or not, and on the values of the valid ones. Records are generated from
 * a seeded PRNG so that a failure reproduces.
 */
describe('native decoder against its zod contract', () => {
  function rng(seed: number) {
    let s = seed >>> 0;
    return () => {
      s = (s + 0x6d2b79f5) >>> 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
  }

  function sample(next: () => number): Record<string, unknown> {
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const anyValue = () => pick<unknown>([null, 'x', '12', 3, -1.5, true, false, [], {}, { '1': true }, [{ mac: 'm' }]]);
    // Now and then a number DynamoDB cannot store, as JSON.parse hands it over.
    const num = () => (next() < 0.03 ? pick<unknown>([Infinity, -Infinity, 2 ** 60, 1e-200]) : pick<unknown>([0, 1, -7, 12.25, 1e6]));
    const fields: Record<string, () => unknown> = {
      ts: () => pick<unknown>([1_714_557_600_000, 0, -1, 2.5, '2024-05-01T10:00:00Z', '2024-05-01T10:00:00.5+01:00', '2024-05-01 10:00', '2023-02-29T00:00:00Z', 2 ** 60]),
      lat: num,
      lon: num,
      spd: num,
      hdg: num,
      alt: num,
      sat: num,
      hdop: num,
      ign: () => pick<unknown>([true, false]),
      mov: () => pick<unknown>([true, false]),
      odo: num,
      hrs: num,
      pwr: num,
      bat: num,
      din: () => pick<unknown>([{ '2': true }, { '1': false, '3': true }, { '5': true }, { '2': 1 }]),
      dout: () => pick<unknown>([{ '1': true, '2': false, '3': true }, {}, { x: true }]),
      ble: () => pick<unknown>([[], [{ mac: 'AA', temp: 1, hum: 2, door: true, bat: 3 }], [{ temp: 1 }], [{ mac: 'B', door: 'open' }]]),
      rfid: () => pick<unknown>(['card-1', 77]),
      harsh: () => pick<unknown>([{ kind: 'braking', g: 0.42, ms: 640 }, { kind: 'cornering' }, { kind: 'drift', g: 0.4 }, { g: 0.4 }, { kind: 'acceleration', g: -1 }, { kind: 'braking', ms: '9' }, 'hard']),
    };
    const r: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields)) {
      const roll = next();
      const required = key === 'ts' || key === 'lat' || key === 'lon';
      if (roll < (required ? 0.03 : 0.4)) continue; // absent
      r[key] = roll < 0.97 ? value() : anyValue();
    }
    return r;
  }

  it('agrees with zod on 5000 generated records', () => {
    const next = rng(20240501);
    let valid = 0;
    for (let i = 0; i < 5000; i++) {
      const record = sample(next);
      const zod = nativeRecordSchema.safeParse(record);
      let mine: Position | RecordError;
      try {
        mine = decodeNativeRecord(record);
      } catch (error) {
        if (!(error instanceof RecordError)) throw error;
        mine = error;
      }
      expect({ record, accepted: !(mine instanceof RecordError) }).toEqual({ record, accepted: zod.success });
      if (zod.success && !(mine instanceof RecordError)) {
        valid++;
        const z = zod.data;
        expect(mine).toMatchObject({
          ts: typeof z.ts === 'string' ? Date.parse(z.ts) : z.ts,
          lat: z.lat,
          lon: z.lon,
          speed: z.spd ?? undefined,
          ignition: z.ign ?? undefined,
          odometer: z.odo ?? undefined,
          din: z.din ?? undefined,
          rfid: z.rfid ?? undefined,
        });
      }
    }
    // The corpus must exercise both verdicts, or the comparison proves nothing.
    expect(valid).toBeGreaterThan(50);
    expect(valid).toBeLessThan(4950);
  });

  it('agrees on the message level: a batch needs a non-empty records array', () => {
    for (const message of [{ records: [] }, { records: [{ ts: 1, lat: 1, lon: 1 }] }, { records: 'x' }]) {
      const zod = nativeBatchSchema.safeParse(message);
      expect(decodeParsed(message).kind === 'positions').toBe(zod.success);
    }
  });
});
