/**
 * From the bytes a tracker published to normalized positions, whatever its family: the message's
 * shape says which (a `state` document or an array of them is Teltonika, `{ "RSP" }` is a
 * Teltonika command answer, anything else is the native protocol), since both families may use
 * trackers/{imei}/telemetry.
 */
import { decodeNativeRecord, decodeRecords, nativeRecords } from './decode-native';
import { decodeTeltonikaRecord, isTeltonika, NeedsExactParse, type NumberParse, teltonikaAnswer } from './decode-teltonika';
import { holdsUnstorable, mayHoldOutOfRange, parseExact } from './storable';
import type { Decoded } from './types';

export function decodeMessage(payload: Buffer): Decoded {
  const text = payload.toString('utf8');
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', reason: 'MalformedJson', detail: error instanceof Error ? error.message : 'not JSON' };
  }
  // A number out of range (storable.ts) must reach the decoders as its text as sent, which only
  // parseExact keeps, at seven times the cost of a plain parse: only a message that holds one
  // pays it. A Teltonika decoder finds one as it reads every element of a record anyway (or it is
  // in a rejected record, whose raw document goes to the dead letters); a native message's text
  // is searched for a number written so.
  if (isTeltonika(message)) {
    try {
      const decoded = decodeTeltonika(message, 'checked');
      if (decoded.rejected.length === 0 || !holdsUnstorable(message)) return decoded;
    } catch (error) {
      if (!(error instanceof NeedsExactParse)) throw error;
    }
    return decodeTeltonika(parseExact(text), 'exact');
  }
  return mayHoldOutOfRange(text) ? decodeParsed(parseExact(text), true) : decodeParsed(message);
}

function decodeTeltonika(message: unknown, parse: NumberParse): Extract<Decoded, { kind: 'positions' }> {
  const docs = Array.isArray(message) ? message : [message];
  return { kind: 'positions', protocol: 'teltonika', ...decodeRecords(docs, (doc) => decodeTeltonikaRecord(doc, parse)) };
}

/** `exact`: the message was parsed with parseExact, so its numbers out of range are RawNumbers. */
export function decodeParsed(message: unknown, exact = false): Decoded {
  if (isTeltonika(message)) return decodeTeltonika(message, exact ? 'exact' : 'plain');
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return { kind: 'invalid', reason: 'UnknownFormat', detail: 'expected a JSON object (native) or a state document (Teltonika)' };
  }
  const msg = message as Record<string, unknown>;
  const answer = teltonikaAnswer(msg);
  if (typeof answer === 'string') return { kind: 'commandAnswer', text: answer };
  if (answer) return { kind: 'invalid', ...answer };

  const records = nativeRecords(msg);
  if (!Array.isArray(records)) return { kind: 'invalid', ...records };
  return { kind: 'positions', protocol: 'native', ...decodeRecords(records, decodeNativeRecord) };
}
