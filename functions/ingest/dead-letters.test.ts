import { describe, expect, it, vi } from 'vitest';

const { batchPut, send, emitCount } = vi.hoisted(() => ({ batchPut: vi.fn(async (_table: string, _items: readonly unknown[]) => undefined), send: vi.fn(async (_command: unknown) => ({})), emitCount: vi.fn() }));
vi.mock('./batch-write', () => ({ batchPut }));
vi.mock('../platform/db', () => ({ dynamo: () => ({ send }), tableName: (key: string) => `t-${key}` }));
vi.mock('../platform/metrics', () => ({ emitCount }));
const { deadLetterItem, recordDeadLetter, recordDeadLetters, streamFailureLetters } = await import('./dead-letters');
type DeadLetter = Parameters<typeof deadLetterItem>[0];

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

  it('count in DeadLettersWritten once written: one per letter, a letter twice in a batch once, nothing when the write fails', async () => {
    await recordDeadLetter(letter);
    expect(send).toHaveBeenCalledTimes(1);
    expect(emitCount).toHaveBeenLastCalledWith('DeadLettersWritten');
    emitCount.mockClear();
    await recordDeadLetters([letter, { ...letter }, { ...letter, recordIndex: 1 }]);
    expect(batchPut.mock.calls[0]?.[1]).toHaveLength(2);
    expect(emitCount.mock.calls).toEqual([['DeadLettersWritten', 2]]);
    emitCount.mockClear();
    batchPut.mockRejectedValueOnce(new Error('throttled'));
    await expect(recordDeadLetters([letter])).rejects.toThrow('throttled');
    expect(emitCount).not.toHaveBeenCalled();
  });
});
