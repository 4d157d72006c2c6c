import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const { deliverAlert } = vi.hoisted(() => ({ deliverAlert: vi.fn<(job: { imei: string; sk: string }) => Promise<void>>() }));
vi.mock('./deliver-alert', () => ({ deliverAlert }));
const { emitCount } = vi.hoisted(() => ({ emitCount: vi.fn() }));
vi.mock('../platform/metrics', () => ({ emitCount }));
const { handler } = await import('./alert-delivery');

const record = (messageId: string, body: string) => ({ messageId, body }) as SQSRecord;

beforeEach(() => {
  deliverAlert.mockReset();
  emitCount.mockReset();
});

describe('the alert queue consumer', () => {
  it('delivers each job and reports only the failed ones for SQS to retry', async () => {
    deliverAlert.mockImplementation(async (job) => {
      if (job.sk === 'fails') throw new Error('SES throttled');
    });
    const out = await handler({
      Records: [record('a', '{"imei":"356938035643809","sk":"ok"}'), record('b', '{"imei":"356938035643809","sk":"fails"}')],
    } as SQSEvent);
    expect(deliverAlert.mock.calls.map((c) => c[0])).toEqual([
      { imei: '356938035643809', sk: 'ok' },
      { imei: '356938035643809', sk: 'fails' },
    ]);
    expect(out).toEqual({ batchItemFailures: [{ itemIdentifier: 'b' }] });
    // One AlertDeliveryFailed per alert that failed, none for the one delivered.
    expect(emitCount.mock.calls).toEqual([['AlertDeliveryFailed']]);
  });

  it('drops a message that is no job instead of retrying it forever', async () => {
    const out = await handler({ Records: [record('c', 'not json'), record('d', '{"imei":1}')] } as SQSEvent);
    expect(deliverAlert).not.toHaveBeenCalled();
    expect(out).toEqual({ batchItemFailures: [] });
    expect(emitCount).not.toHaveBeenCalled();
  });
});
