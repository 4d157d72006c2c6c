/**
 * The one writer of the `dead-letters` table: tracker messages (or single records of a batch) that
 * could not be ingested, with the reason. The decoder's rejects, the ingest stream's batches that
 * failed their retries (`ProcessingFailed`: the embedded stream writes them here directly, on AWS
 * record-failures.ts reads them back from the failure queue) and the IoT rules' errors
 * (`RuleActionFailed`) land here, so operators read one place in one shape. Items are keyed by the UTC day
 * they were received and expire after 30 days; the payload is kept base64 (binary-safe) and cut
 * to a bounded size, since a tracker controls how much it sends. Every letter written counts in
 * the `DeadLettersWritten` metric (functions/platform/metrics.ts), which an alarm watches.
 */
import { createHash } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import { emitCount } from '../platform/metrics';
import type { IotRuleEvent } from '../../shared/iot-rules';
import { batchPut } from './batch-write';
import type { DeadLetterReason } from './types';

export const DEAD_LETTER_TTL_DAYS = 30;
export const DEAD_LETTER_PAYLOAD_BYTES = 8192;

export interface DeadLetter {
  reason: DeadLetterReason;
  /** What exactly was wrong (a field path, an error message); never secrets. */
  detail?: string;
  topic: string;
  imei: string;
  /** The message (or record) as received. */
  payload: Buffer;
  /** Epoch ms when the broker received the message. */
  receivedAt: number;
  /** The IoT rule it came through, when it failed there. */
  rule?: string;
  /** The record's place in a batch, when only that record was rejected. */
  recordIndex?: number;
}

export interface DeadLetterItem {
  day: string;
  receivedAtId: string;
  reason: string;
  detail?: string;
  rule?: string;
  topic: string;
  imei: string;
  recordIndex?: number;
  payload: string;
  payloadBytes: number;
  payloadTruncated: boolean;
  receivedAt: string;
  expiresAt: number;
}

/**
 * The same letter gets the same id, so that a retried invocation (Lambda retries a failed one
 * with the same event) overwrites its dead letters instead of adding copies.
 */
export function deadLetterId(letter: DeadLetter): string {
  return createHash('sha256')
    .update(`${letter.topic}\n${letter.imei}\n${letter.receivedAt}\n${letter.recordIndex ?? ''}\n${letter.reason}\n`)
    .update(letter.payload)
    .digest('hex')
    .slice(0, 32);
}

export function deadLetterItem(letter: DeadLetter, id: string = deadLetterId(letter)): DeadLetterItem {
  const at = new Date(letter.receivedAt);
  const iso = at.toISOString();
  const kept = letter.payload.subarray(0, DEAD_LETTER_PAYLOAD_BYTES);
  return {
    day: iso.slice(0, 10),
    receivedAtId: `${iso}#${id}`,
    reason: letter.reason,
    ...(letter.detail !== undefined ? { detail: letter.detail.slice(0, 500) } : {}),
    ...(letter.rule !== undefined ? { rule: letter.rule } : {}),
    topic: letter.topic,
    imei: letter.imei,
    ...(letter.recordIndex !== undefined ? { recordIndex: letter.recordIndex } : {}),
    payload: kept.toString('base64'),
    payloadBytes: letter.payload.length,
    payloadTruncated: kept.length < letter.payload.length,
    receivedAt: iso,
    expiresAt: Math.floor(at.getTime() / 1000) + DEAD_LETTER_TTL_DAYS * 86_400,
  };
}

export async function recordDeadLetter(letter: DeadLetter): Promise<DeadLetterItem> {
  const item = deadLetterItem(letter);
  await dynamo().send(new PutCommand({ TableName: tableName('deadLetters'), Item: { ...item } }));
  emitCount('DeadLettersWritten');
  return item;
}

/** Many letters at once (a batch of messages); the same letter twice is written once. */
export async function recordDeadLetters(letters: readonly DeadLetter[]): Promise<void> {
  if (!letters.length) return;
  const items = new Map<string, DeadLetterItem>();
  for (const letter of letters) {
    const item = deadLetterItem(letter);
    items.set(`${item.day}\n${item.receivedAtId}`, item);
  }
  await batchPut(tableName('deadLetters'), [...items.values()] as unknown as Record<string, unknown>[]);
  emitCount('DeadLettersWritten', items.size);
}

/**
 * The letters of stream records the ingest function gave up on (the event source mapping's
 * retries, or the embedded stream's, are spent): each record's message as the rule received it,
 * with the reason `ProcessingFailed` and the last error, in the same table and shape as every
 * other dead letter.
 */
export function streamFailureLetters(records: readonly { kinesis: { partitionKey: string; data: string; approximateArrivalTimestamp: number } }[], error: unknown): DeadLetter[] {
  const detail = error instanceof Error ? error.message : String(error);
  return records.map(({ kinesis }) => {
    const data = Buffer.from(kinesis.data, 'base64');
    const fallback = { topic: '', imei: kinesis.partitionKey, payload: data, receivedAt: Math.round(kinesis.approximateArrivalTimestamp * 1000) };
    let event: Partial<IotRuleEvent> = {};
    try {
      event = JSON.parse(data.toString('utf8')) as Partial<IotRuleEvent>;
    } catch {
      // Not a rule's output: kept as it was on the stream.
    }
    const usable = typeof event.topic === 'string' && typeof event.imei === 'string' && typeof event.payload === 'string' && Number.isSafeInteger(event.receivedAt);
    return {
      reason: 'ProcessingFailed',
      detail,
      ...(usable ? { topic: event.topic as string, imei: event.imei as string, payload: Buffer.from(event.payload as string, 'base64'), receivedAt: event.receivedAt as number } : fallback),
    };
  });
}

export async function recordStreamFailure(records: Parameters<typeof streamFailureLetters>[0], error: unknown): Promise<void> {
  await recordDeadLetters(streamFailureLetters(records, error));
}
