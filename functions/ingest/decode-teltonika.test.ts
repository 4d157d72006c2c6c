import { describe, expect, it } from 'vitest';
import { decodeMessage, decodeParsed } from './decode';
import { ioElements } from './position-codec';
import { parseExact } from './storable';
import type { Decoded } from './types';

/**
 * Real messages of a Teltonika FMC003 in AWS JSON mode, as captured in OpenRemote's Teltonika
 * integration tests (github.com/openremote/openremote, test/src/test/resources/org/openremote/test/teltonika/):
 * - WITH_FIX: one record of SortedPayloads.json (commit 70672dd7349ad179f4f9f9506803e04cc8bd2691),
 *   where the firmware sends alt/ang/sat/sp as strings;
 * - NO_FIX: teltonikaValidPayload1.json (commit 51da2328665aba14383ab4cf87cf02a99c98c163), sent
 *   before the first fix: zero coordinates, no satellites, GNSS status (IO 69) 2 = "on without fix".
 */
const WITH_FIX = `{
  "state": {
    "reported": {
      "11": 893116211, "12": 275, "13": 217, "14": 1680671168, "15": 1000, "16": 10922, "17": 99,
      "18": 64573, "19": 65443, "21": 4, "24": 0, "66": 0, "67": 3411, "68": 0, "69": 1, "80": 0,
      "113": 8, "181": 12, "182": 9, "199": 0, "200": 0, "206": 30, "237": 2, "238": 0, "239": 0,
      "240": 0, "241": 20416, "250": 0, "263": 1, "303": 0,
      "387": "1280798554619934317888870845341580615059254735744052019197396605377754331348087343",
      "449": 0, "636": 94054964,
      "latlng": "51.4462749,5.4539066", "ts": 1699637407000, "alt": "22", "ang": "227", "sat": "9", "sp": "0"
    }
  }
}`;

const NO_FIX = `{
  "state":{
    "reported":{
      "ts":1698922776030, "pr":1, "latlng":"0.000000,0.000000", "alt":0, "ang":0, "sat":0, "sp":0, "evt":250,
      "239":0, "240":1, "80":1, "21":4, "200":0, "69":2, "237":2, "113":100, "263":2, "303":1, "250":1,
      "181":0, "182":0, "66":11922, "24":0, "206":30, "67":4110, "68":0, "13":2840, "17":45, "18":-11,
      "19":988, "15":1000, "241":20416, "199":0, "16":6870, "12":244, "449":0, "636":53977651,
      "11":893116211, "238":"0x0000000000000000", "14":1680671168, "387":"+000000.0000+0000000.0000+000.000/"
    }
  }
}`;

function positionsOf(d: Decoded) {
  if (d.kind !== 'positions') throw new Error(`expected positions, got ${d.kind}`);
  return d;
}

describe('Teltonika AWS JSON decoder', () => {
  it('decodes a real FMC003 record with a fix, string-typed GNSS fields included', () => {
    const d = positionsOf(decodeMessage(Buffer.from(WITH_FIX)));
    expect(d.protocol).toBe('teltonika');
    expect(d.rejected).toEqual([]);
    const [p] = d.positions;
    expect(p).toMatchObject({
      ts: 1_699_637_407_000,
      lat: 51.4462749,
      lon: 5.4539066,
      fix: true,
      speed: 0,
      heading: 227,
      alt: 22,
      sats: 9,
      hdop: 0.9,
      ignition: false,
      movement: false,
      odometer: 10922,
      engineSeconds: 0,
      extVolts: 0,
      batVolts: 3.411,
      din: undefined,
      dout: undefined,
      rfid: undefined,
    });
    // Every numbered IO element is kept raw, the GNSS fields are not.
    expect(ioElements(p?.io)).toMatchObject({ '69': 1, '182': 9, '387': expect.any(String), '636': 94054964 });
    expect(Object.keys(ioElements(p?.io))).toHaveLength(33);
    expect(ioElements(p?.io)).not.toHaveProperty('latlng');
  });

  it('decodes the real no-fix record and marks it so (GNSS status 2, no satellites)', () => {
    const [p] = positionsOf(decodeMessage(Buffer.from(NO_FIX))).positions;
    expect(p).toMatchObject({ ts: 1_698_922_776_030, lat: 0, lon: 0, fix: false, sats: 0, movement: true, extVolts: 11.922, batVolts: 4.11, odometer: 6870 });
    expect(p?.rfid).toBeUndefined();
    expect(ioElements(p?.io)).toMatchObject({ evt: 250, '238': '0x0000000000000000' });
  });

  it('maps inputs, outputs, ignition and the RFID card', () => {
    const [p] = positionsOf(
      decodeParsed({
        state: { reported: { ts: 1000, latlng: '59.1,18.2', sat: 7, '1': 1, '2': 0, '179': 1, '180': 0, '380': 1, '239': 1, '207': '0x00000000A1B2C3D4', '449': 7200 } },
      }),
    ).positions;
    expect(p).toMatchObject({
      fix: true,
      ignition: true,
      din: { '1': true, '2': false },
      dout: { '1': true, '2': false, '3': true },
      rfid: '00000000A1B2C3D4',
      engineSeconds: 7200,
    });
    const [q] = positionsOf(decodeParsed({ state: { reported: { ts: 1000, latlng: '59.1,18.2', '78': 0xa1b2c3 } } })).positions;
    expect(q?.rfid).toBe('0000000000A1B2C3');
  });

  it('keeps an 8-byte IO value beyond 2^53 as its exact digits, and reads the iButton id from them', () => {
    // IO 78 = 0x1234567890ABCDEF, as the firmware writes an 8-byte element: a JSON number.
    const text = `{"state":{"reported":{"ts":1699637407000,"latlng":"51.4462749,5.4539066","sat":9,"sp":"12",
      "78":1311768467294899695,"16":10922,"239":1,"69":1,"387":"1280798554619934317888870845341580615059254735744052019197396605377754331348087343"}}}`;
    const d = positionsOf(decodeMessage(Buffer.from(text)));
    expect(d.rejected).toEqual([]);
    const [p] = d.positions;
    expect(ioElements(p?.io)).toEqual({
      '78': '1311768467294899695',
      '16': 10922,
      '239': 1,
      '69': 1,
      '387': '1280798554619934317888870845341580615059254735744052019197396605377754331348087343',
    });
    expect(p).toMatchObject({ speed: 12, odometer: 10922, ignition: true, rfid: '1234567890ABCDEF' });
  });

  it('keeps any IO value out of range as sent and does not map it; a GNSS field out of range rejects its record only', () => {
    const text = `[
      {"state":{"reported":{"ts":1000,"latlng":"59.1,18.1","sat":7,"16":1e400,"66":-1E999,"999":[1e400,2],"":5}}},
      {"state":{"reported":{"ts":2000,"latlng":"59.2,18.2","sat":7,"sp":1e400}}},
      {"state":{"reported":{"ts":3000,"latlng":"59.3,18.3","sat":7,"alt":"1e300"}}},
      {"state":{"reported":{"ts":4000,"latlng":"1e400,18.4","sat":7}}},
      {"state":{"reported":{"ts":5000,"latlng":"59.5,18.5","sat":7,"66":1e-128}}}
    ]`;
    const d = positionsOf(decodeMessage(Buffer.from(text)));
    expect(d.positions).toHaveLength(1);
    const [p] = d.positions;
    // No empty name either: DynamoDB refuses it.
    expect(ioElements(p?.io)).toEqual({ '16': '1e400', '66': '-1E999', '999': '["1e400",2]' });
    expect(p).toMatchObject({ ts: 1000, odometer: undefined, extVolts: undefined });
    expect(d.rejected.map(({ index, reason, detail }) => ({ index, reason, detail }))).toEqual([
      { index: 1, reason: 'NumberOutOfRange', detail: 'state.reported.sp: 1e400 is out of range' },
      { index: 2, reason: 'NumberOutOfRange', detail: 'state.reported.alt: 1e300 is out of range' },
      { index: 3, reason: 'NumberOutOfRange', detail: 'state.reported.latlng: 1e400,18.4 is out of range' },
      // Storable as sent, not once made volts: the check of every decoded position catches it.
      { index: 4, reason: 'NumberOutOfRange', detail: 'extVolts: 1.0000000000000001e-131 is out of range' },
    ]);
  });

  it('keeps a numbered IO element as its number and an object or array element as its JSON text, so that no key in it can fail a read', () => {
    const [p] = positionsOf(decodeMessage(Buffer.from('{"state":{"reported":{"ts":1000,"latlng":"59.1,18.1","5":{"__proto__":1},"6":[{"__proto__":{"a":1}}],"7":null,"evt":0,"007":"x"}}}'))).positions;
    expect(p?.io).toEqual([5, '{"__proto__":1}', 6, '[{"__proto__":{"a":1}}]', 7, null, 'evt', 0, '007', 'x']);
  });

  it('finds a number out of range in a document parsed as plain JSON, and decodes it as an exact parse would', () => {
    // Out of range only in an element, and only in an element's array: the same as the exact parse.
    for (const element of ['1e400', '[1,1e400]', '{"a":-1E999}']) {
      const text = `{"state":{"reported":{"ts":1000,"latlng":"59.1,18.1","16":${element}}}}`;
      expect(positionsOf(decodeMessage(Buffer.from(text)))).toEqual(positionsOf(decodeParsed(parseExact(text), true)));
    }
    // Anywhere in a rejected record: its raw document (kept in the dead letters) keeps the number as sent.
    const rejected = positionsOf(decodeMessage(Buffer.from('{"state":{"reported":{"ts":1000},"desired":{"x":1e400}}}'))).rejected;
    expect(JSON.stringify(rejected[0]?.raw)).toBe('{"state":{"reported":{"ts":1000},"desired":{"x":1e400}}}');
  });

  it('leaves the document as received, GNSS fields included', () => {
    const doc = { state: { reported: { ts: 1000, latlng: '59.1,18.1', sat: 7, sp: 3, '239': 1 } } };
    const copy = structuredClone(doc);
    positionsOf(decodeParsed(doc));
    expect(doc).toEqual(copy);
  });

  it('decodes an array of documents as a buffered batch, one bad document aside', () => {
    const d = positionsOf(
      decodeParsed([
        { state: { reported: { ts: 2000, latlng: '59.1,18.2', sat: 5 } } },
        { state: { reported: { ts: 1000, latlng: 'nowhere', sat: 5 } } },
        { state: { reported: { ts: 3000, latlng: '59.2,18.3', sat: 5 } } },
      ]),
    );
    expect(d.positions.map((p) => p.ts)).toEqual([2000, 3000]);
    expect(d.rejected).toMatchObject([{ index: 1, reason: 'InvalidValue', detail: 'state.reported.latlng: expected "lat,lng"' }]);
  });

  it.each([
    [{ state: {} }, 'MissingField', 'state.reported: required'],
    [{ state: { reported: { latlng: '1,2' } } }, 'MissingField', 'state.reported.ts: required'],
    [{ state: { reported: { ts: 1 } } }, 'MissingField', 'state.reported.latlng: required'],
    [{ state: { reported: { ts: 1, latlng: [1, 2] } } }, 'WrongType', 'state.reported.latlng: expected "lat,lng"'],
    [{ state: { reported: { ts: 1, latlng: '1,2', sp: 'fast' } } }, 'WrongType', 'state.reported.sp: expected a number'],
  ])('rejects %j: %s', (doc, reason, detail) => {
    expect(positionsOf(decodeParsed(doc)).rejected).toMatchObject([{ index: 0, reason, detail }]);
  });

  it('maps green driving (IO 253/254/243), over-speeding (255), idling (251) and the eco score (15)', () => {
    const doc = (io: Record<string, unknown>) => ({ state: { reported: { ts: 1_700_000_000_000, latlng: '59.33,18.06', sat: 9, sp: 50, ...io } } });
    const one = (io: Record<string, unknown>) => positionsOf(decodeParsed(doc(io))).positions[0];
    // Harsh braking of 0.42 g (g x 100) lasting 640 ms: the device decided it.
    const braking = one({ '253': 2, '254': 42, '243': 640 });
    expect(braking?.eco).toEqual({ harsh: { kind: 'braking', g: 0.42, ms: 640, byDevice: true } });
    expect(ioElements(braking?.io)).toMatchObject({ '253': 2, '254': 42, '243': 640 });
    expect(one({ '253': 1 })?.eco).toEqual({ harsh: { kind: 'acceleration', g: undefined, ms: undefined, byDevice: true } });
    expect(one({ '253': 3, '254': '35' })?.eco?.harsh).toMatchObject({ kind: 'cornering', g: 0.35 });
    // An unknown type is no harsh event; the raw value stays.
    expect(one({ '253': 7, '254': 42 })?.eco).toBeUndefined();
    expect(one({ '251': 1, '255': 104 })?.eco).toEqual({ idling: true, overspeedKmh: 104 });
    expect(one({ '251': 0 })?.eco).toEqual({ idling: false });
    expect(one({ '15': 666 })?.eco).toEqual({ deviceScore: 6.66 });
    expect(one({ '239': 1 })?.eco).toBeUndefined();
  });

  it('hands a command answer over instead of a position', () => {
    expect(decodeMessage(Buffer.from('{"RSP":"DOUT1:1 Timeout:60 DOUT2:IGNORED"}'))).toEqual({ kind: 'commandAnswer', text: 'DOUT1:1 Timeout:60 DOUT2:IGNORED' });
    expect(decodeParsed({ RSP: 5 })).toEqual({ kind: 'invalid', reason: 'WrongType', detail: 'RSP: expected a string' });
  });
});
