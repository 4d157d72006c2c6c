import { decode, encode } from '@msgpack/msgpack';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemSize } from '../../scripts/cost/dynamo-size';
import { testPosition } from '../../test/support/positions';
import { CHUNK_ATTRIBUTE, ioElements, ioKey, PACKED_ATTRIBUTE, POSITION_FIELDS, positionOfItem, positionProjection } from './position-codec';
import { positionItem, positionExpiry } from './repository';
import type { Position } from './types';

const IMEI = '356938035643809';
const TS = Date.parse('2026-11-30T07:15:00.000Z');

/** A moving car's record as the native protocol reports it. */
const car: Position = testPosition(TS, 59.3293234, 18.0685808, {
  speed: 52.5,
  heading: 271,
  alt: 28,
  sats: 11,
  hdop: 0.8,
  ignition: true,
  movement: true,
  odometer: 123_456_789,
  engineSeconds: 9_876_543,
  extVolts: 13.82,
  batVolts: 4.07,
  din: { '1': true, '2': false },
  dout: { '1': false },
});

/** The item as ingest wrote it before positions were packed: every field an attribute. */
function legacyItem(p: Position, receivedAt: number, retentionDays: number): Record<string, unknown> {
  const item: Record<string, unknown> = { imei: IMEI, ts: p.ts, receivedAt, expiresAt: positionExpiry(p.ts, retentionDays) };
  for (const f of POSITION_FIELDS) if (p[f] !== undefined) item[f] = p[f];
  return item;
}

/** The fields of a position as a reader gets them: the IO elements as an object. */
const fieldsOf = (p: Position) => Object.fromEntries(POSITION_FIELDS.filter((f) => p[f] !== undefined).map((f) => [f, f === 'io' ? Object.fromEntries(pairsOf(p.io ?? [])) : p[f]]));
/** IoPairs as [key, value] entries, each key as text. */
const pairsOf = (pairs: unknown[]) => Array.from({ length: pairs.length / 2 }, (_, i) => [String(pairs[2 * i]), pairs[2 * i + 1]] as const);

describe('positions items', () => {
  it('keep the keys, the TTL and the late flag as attributes and every other field in one binary attribute', () => {
    const item = positionItem(IMEI, car, TS + 2_300, 395, true);
    expect(Object.keys(item).sort()).toEqual(['expiresAt', 'imei', 'late', PACKED_ATTRIBUTE, 'ts'].sort());
    expect(item[PACKED_ATTRIBUTE]).toBeInstanceOf(Uint8Array);
    expect(positionOfItem(item)).toEqual({ imei: IMEI, ts: TS, ...fieldsOf(car), receivedAt: TS + 2_300, expiresAt: positionExpiry(TS, 395), late: true });
    expect(positionOfItem(positionItem(IMEI, car, TS - 5, 30))).not.toHaveProperty('late');
  });

  it('read every field back exactly as it was written, whatever the values', () => {
    // -0 reads back as 0 (MessagePack has no negative integer zero); no tracker reports one.
    const double = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x));
    const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
    // Numbered elements (packed as numbers, as ioKey makes them) beside names that only look like numbers and any other text.
    const key = fc.oneof(fc.nat({ max: 999_999_999 }), fc.constantFrom('evt', '__proto__', '', '4294967295', '-1', '1.5', '007'), fc.string({ maxLength: 8 }));
    const io = fc.uniqueArray(fc.tuple(key, fc.oneof(fc.integer(), double, fc.string({ maxLength: 20 }), fc.boolean())), { maxLength: 8, selector: ([k]) => String(k) }).map((entries) => entries.flat());
    const position = fc.record({
      ts: fc.integer({ min: 0, max: 4_000_000_000_000 }),
      lat: fc.double({ min: -90, max: 90, noNaN: true }).map((x) => (Object.is(x, -0) ? 0 : x)),
      lon: fc.double({ min: -180, max: 180, noNaN: true }).map((x) => (Object.is(x, -0) ? 0 : x)),
      speed: maybe(double),
      heading: maybe(fc.integer({ min: 0, max: 359 })),
      alt: maybe(fc.integer({ min: -500, max: 9000 })),
      sats: maybe(fc.integer({ min: 0, max: 40 })),
      hdop: maybe(double),
      ignition: maybe(fc.boolean()),
      movement: maybe(fc.boolean()),
      odometer: maybe(fc.oneof(fc.nat(), double)),
      engineSeconds: maybe(fc.nat()),
      extVolts: maybe(double),
      batVolts: maybe(double),
      din: maybe(fc.dictionary(fc.constantFrom('1', '2', '3'), fc.boolean())),
      dout: maybe(fc.dictionary(fc.constantFrom('1', '2', '3'), fc.boolean())),
      ble: maybe(fc.array(fc.record({ mac: fc.stringMatching(/^[0-9a-f]{12}$/), temp: double, hum: double, door: fc.boolean(), bat: double }), { minLength: 1, maxLength: 3 })),
      rfid: maybe(fc.string({ minLength: 1, maxLength: 16 })),
      eco: maybe(fc.record({ idling: fc.boolean(), overspeedKmh: fc.integer({ min: 0, max: 250 }) })),
      io: maybe(io),
      received: fc.integer({ min: -86_400_000, max: 30 * 86_400_000 }),
    });
    fc.assert(
      fc.property(position, ({ received, ...fields }) => {
        const p = testPosition(fields.ts, fields.lat, fields.lon, fields as Partial<Position>);
        const read = positionOfItem(positionItem(IMEI, p, p.ts + received, 395));
        expect(read).toEqual({ imei: IMEI, ts: p.ts, ...fieldsOf(p), receivedAt: p.ts + received, expiresAt: positionExpiry(p.ts, 395) });
        // Object.is: every double its own bits, not one close to it.
        for (const f of ['lat', 'lon', 'speed', 'hdop', 'extVolts', 'batVolts'] as const) expect(Object.is(read[f], p[f])).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('read items written before the packing as they are', () => {
    const item = legacyItem(car, TS + 900, 395);
    expect(positionOfItem(item)).toEqual({ imei: IMEI, ts: TS, ...fieldsOf(car), receivedAt: TS + 900, expiresAt: positionExpiry(TS, 395) });
    expect(positionOfItem({ imei: IMEI, ts: TS, lat: 59, lon: 18 })).toEqual({ imei: IMEI, ts: TS, lat: 59, lon: 18 });
  });

  it('name an IO element by its number where a JS object orders its name as one, and by its name otherwise', () => {
    expect([ioKey('11'), ioKey('0'), ioKey('636'), ioKey('999999999')]).toEqual([11, 0, 636, 999_999_999]);
    expect([ioKey('007'), ioKey('-1'), ioKey('1.5'), ioKey('1000000000'), ioKey('evt'), ioKey('')]).toEqual(['007', '-1', '1.5', '1000000000', 'evt', '']);
    // Whatever the name, the key reads back as it was.
    fc.assert(fc.property(fc.oneof(fc.string(), fc.nat().map(String)), (name) => String(ioKey(name)) === name));
  });

  it("keep a Teltonika record's IO elements as keys and values, a numbered key as its number, and read the map written before", () => {
    const io = [11, 893116211, 16, 10922, 239, 1, 387, '128079855461993431788887084534158', 636, 94054964, 'evt', 0, '007', 'x'];
    const asObject = Object.fromEntries(pairsOf(io));
    const teltonika = testPosition(TS, 59.3293234, 18.0685808, { speed: 50, io });
    const item = positionItem(IMEI, teltonika, TS + 900, 395);
    const values = decode(item[PACKED_ATTRIBUTE]) as unknown[];
    expect(values[POSITION_FIELDS.indexOf('io')]).toEqual(io);
    expect(positionOfItem(item).io).toEqual(asObject);
    expect(Object.keys(positionOfItem(item).io ?? {})).toEqual(Object.keys(asObject));
    // As written on 2026-11-30: the elements as a map.
    values[POSITION_FIELDS.indexOf('io')] = asObject;
    const asMap = { ...item, [PACKED_ATTRIBUTE]: encode(values) };
    expect(positionOfItem(asMap)).toEqual(positionOfItem(item));
    // Two bytes fewer for 11, 16 and 239 (a positive fixint or uint8 for a fixstr of two or three), one for 387 and 636 (uint16).
    expect(itemSize(asMap) - itemSize(item)).toBe(8);
  });

  it('read an IO element named __proto__ as an element, not as the prototype', () => {
    const read = positionOfItem(positionItem(IMEI, testPosition(TS, 59, 18, { io: ['__proto__', 7, 1, 2] }), TS, 395)).io as Record<string, unknown>;
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.entries(read)).toEqual([['1', 2], ['__proto__', 7]]);
    expect(ioElements(['__proto__', { a: 1 }])).toEqual(JSON.parse('{"__proto__":{"a":1}}'));
  });

  it('take under half the bytes of the item written before, under 72 % of what DynamoDB bills for it with its 100 bytes of overhead', () => {
    const before = itemSize(legacyItem(car, TS + 900, 395));
    const after = itemSize(positionItem(IMEI, car, TS + 900, 395));
    expect(after / before).toBeLessThan(0.56);
    expect((after + 100) / (before + 100)).toBeLessThan(0.72);
  });

  it('project the sort key, the packed attribute, the chunk and the older form names under placeholders', () => {
    expect(positionProjection(['lat', 'ts', 'engineSeconds'])).toEqual({
      ProjectionExpression: '#p0, #p1, #p2, #p3, #p4',
      ExpressionAttributeNames: { '#p0': 'ts', '#p1': PACKED_ATTRIBUTE, '#p2': CHUNK_ATTRIBUTE, '#p3': 'lat', '#p4': 'engineSeconds' },
    });
  });
});
