import { describe, expect, it } from 'vitest';
import { testPosition } from '../../test/support/positions';
import { isStorableNumber, mayHoldOutOfRange, parseExact, RawNumber, unstorableField } from './storable';

describe('storable numbers', () => {
  it('are the finite ones DynamoDB takes exactly: within ±2^53 and not below 1e-130', () => {
    for (const v of [0, -0, 1, -1.5, 59.3293, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e-130, -1e-130, 1e15]) {
      expect(isStorableNumber(v), String(v)).toBe(true);
    }
    for (const v of [NaN, Infinity, -Infinity, 2 ** 53, -(2 ** 53), Number('1311768467294899695'), 1e300, 1e-131, -1e-200, 5e-324]) {
      expect(isStorableNumber(v), String(v)).toBe(false);
    }
  });

  it('keep the text of every number out of range when parsed exactly, written back as sent', () => {
    const text = '{"a":1e400,"b":[12345678901234567890,1.5,-1e-200],"c":"1e400","d":7}';
    const parsed = parseExact(text) as { a: RawNumber; b: [RawNumber, number, RawNumber]; c: string; d: number };
    expect(parsed.a).toEqual(new RawNumber('1e400', Infinity));
    expect(parsed.b[0].source).toBe('12345678901234567890');
    expect(parsed.b[1]).toBe(1.5);
    expect(parsed.b[2].source).toBe('-1e-200');
    expect(parsed.c).toBe('1e400');
    expect(parsed.d).toBe(7);
    expect(JSON.stringify(parsed)).toBe(text);
  });

  it('are never missed by the scan that decides whether a message is parsed exactly', () => {
    // Whatever text a number out of range was written as, the scan must see it; storable ones may cost an exact parse.
    const texts = [
      '1e400', '-1E+400', '1.5e300', '12345678901234567890', '9007199254740992', '-9007199254740993', '1e-200', '2.5E-131',
      `0.${'0'.repeat(130)}1`, `-0.${'0'.repeat(140)}5`, `1${'0'.repeat(400)}`,
    ];
    for (const number of texts) {
      expect(isStorableNumber(JSON.parse(number) as number), number).toBe(false);
      for (const doc of [`{"lat":${number}}`, `{"lat": \n ${number}}`, `[1,${number}]`, `[${number}]`, `{"records":[{"ts":1,"spd":${number}}]}`]) {
        expect(mayHoldOutOfRange(doc), doc).toBe(true);
      }
    }
    // Every number of an ordinary message is in range: a plain parse.
    const ordinary = JSON.stringify({ ts: 1_714_557_600_000, lat: 59.32931000000001, lon: -18.0686, spd: 0.30000000000000004, odo: 123_456_789_012_345 });
    expect(mayHoldOutOfRange(ordinary)).toBe(false);
    // Teltonika's IO 387 (ISO 6709 coordinates) is a long digit string, not a number.
    expect(mayHoldOutOfRange('{"387":"1280798554619934317888870845341580615059254735744052019197396605377754331348087343","11":893116211}')).toBe(false);
  });

  it('are checked once more on every decoded position: the first field out of range is named', () => {
    expect(unstorableField(testPosition(1000, 59.3, 18.1, { speed: 42, ble: [{ mac: 'a', temp: 4, hum: undefined, door: undefined, bat: 3 }] }))).toBeUndefined();
    expect(unstorableField(testPosition(1000, Infinity, 18.1))).toBe('lat: Infinity is out of range');
    expect(unstorableField(testPosition(1000, 59.3, 18.1, { extVolts: 1e-131 }))).toBe('extVolts: 1e-131 is out of range');
    expect(unstorableField(testPosition(1000, 59.3, 18.1, { ble: [{ mac: 'a', temp: 4, hum: NaN, door: undefined, bat: 3 }] }))).toBe('ble[0].hum: NaN is out of range');
  });

  it('name every numeric field of a position that is out of range', () => {
    const fields = ['ts', 'lat', 'lon', 'speed', 'heading', 'alt', 'sats', 'hdop', 'odometer', 'engineSeconds', 'extVolts', 'batVolts'] as const;
    for (const field of fields) {
      expect(unstorableField({ ...testPosition(1000, 59.3, 18.1, { speed: 40, odometer: 1200 }), [field]: 2 ** 60 }), field).toBe(`${field}: ${2 ** 60} is out of range`);
    }
  });
});
