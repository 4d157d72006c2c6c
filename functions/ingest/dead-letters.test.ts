import { describe, expect, it } from 'vitest';
import { deadLetterItem, streamFailureLetters, type DeadLetter } from './dead-letters';

describe('dead-letter items', () => {
  const letter: DeadLetter = {
    reason: 'RuleActionFailed',
    detail: 'ingest handler threw',
    rule: 'trackerTelemetry',
    topic: 'trackers/356938035643809/telemetry',
    imei: '356938035643809',
    payload: Buffer.from([0x7b, 0x00, 0xff]),
    receivedAt: Date.UTC(2025, 0, 31, 23, 59, 59, 500),
  };

  it('keep each record of a batch that failed its retries as the message the rule received, or as it was on the stream', () => {
    const event = { payload: Buffer.from('{"ts":1}').toString('base64'), topic: 'trackers/356938035643809/telemetry', imei: '356938035643809', receivedAt: 1_700_000_000_000 };
    const record = (data: string) => ({ kinesis: { partitionKey: '356938035643809', data: Buffer.from(data).toString('base64'), approximateArrivalTimestamp: 1_700_000_001.5 } });
    const [rule, raw] = streamFailureLetters([record(JSON.stringify(event)), record('not json')], new Error('DynamoDB unreachable'));
    expect(rule).toEqual({ reason: 'ProcessingFailed', detail: 'DynamoDB unreachable', topic: event.topic, imei: event.imei, payload: Buffer.from('{"ts":1}'), receivedAt: event.receivedAt });
    expect(raw).toEqual({ reason: 'ProcessingFailed', detail: 'DynamoDB unreachable', topic: '', imei: '356938035643809', payload: Buffer.from('not json'), receivedAt: 1_700_000_001_500 });
  });

  it("serve an error action as well as the decoder: binary-safe, keyed by the UTC day received, kept 30 days", () => {
    const item = deadLetterItem(letter);
    expect(item).toEqual({
      day: '2025-01-31',
      receivedAtId: expect.stringMatching(/^2025-01-31T23:59:59\.500Z#[0-9a-f]{32}$/),
      reason: 'RuleActionFailed',
      detail: 'ingest handler threw',
      rule: 'trackerTelemetry',
      topic: letter.topic,
      imei: letter.imei,
      payload: 'ewD/',
      payloadBytes: 3,
      payloadTruncated: false,
      receivedAt: '2025-01-31T23:59:59.500Z',
      expiresAt: Math.floor(letter.receivedAt / 1000) + 30 * 86_400,
    });
  });

  it('give the same letter the same key and another letter another', () => {
    expect(deadLetterItem(letter).receivedAtId).toBe(deadLetterItem({ ...letter }).receivedAtId);
    expect(deadLetterItem({ ...letter, recordIndex: 2 }).receivedAtId).not.toBe(deadLetterItem(letter).receivedAtId);
    expect(deadLetterItem({ ...letter, payload: Buffer.from('x') }).receivedAtId).not.toBe(deadLetterItem(letter).receivedAtId);
  });
});
