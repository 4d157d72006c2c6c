/**
 * From the bytes a tracker published to normalized positions, whatever its family: the message's
 * shape says which (a `state` document or an array of them is Teltonika, `{ "RSP" }` is a
 * Teltonika command answer, anything else is the native protocol), since both families may use
 * trackers/{imei}/telemetry.
 */
import { decodeNativeRecord, decodeRecords, nativeRecords } from './decode-native';
import { decodeTeltonikaRecord, isTeltonika, teltonikaAnswer } from './decode-teltonika';
import { mayHoldOutOfRange, parseExact } from './storable';
import type { Decoded } from './types';

export function decodeMessage(payload: Buffer): Decoded {
  const text = payload.toString('utf8');
  // Keeping the text of each number costs seven times a plain parse, and only a number written
  // with an exponent or 16 digits can be out of range (storable.ts): only such a message pays it.
  const exact = mayHoldOutOfRange(text);
  let message: unknown;
  try {
    message = exact ? parseExact(text) : JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', reason: 'MalformedJson', detail: error instanceof Error ? error.message : 'not JSON' };
  }
  return decodeParsed(message, exact);
}

/** `exact`: the message was parsed with parseExact, so its numbers out of range are RawNumbers. */
export function decodeParsed(message: unknown, exact = false): Decoded {
  if (isTeltonika(message)) {
    const docs = Array.isArray(message) ? message : [message];
    return { kind: 'positions', protocol: 'teltonika', ...decodeRecords(docs, (doc) => decodeTeltonikaRecord(doc, exact)) };
  }
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
