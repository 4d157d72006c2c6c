import { afterEach, describe, expect, it, vi } from 'vitest';
import { emfDocument, emitCount } from './metrics';

const runtime = process.env['RUNTIME'];
afterEach(() => {
  vi.restoreAllMocks();
  if (runtime === undefined) delete process.env['RUNTIME'];
  else process.env['RUNTIME'] = runtime;
});

/** The JSON lines written to stdout while `fn` runs. */
function stdoutLines(fn: () => void): unknown[] {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(chunk.toString());
    return true;
  });
  fn();
  vi.restoreAllMocks();
  return lines.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
}

describe('operational metrics (EMF)', () => {
  it('describes a count in the TrackingPortal namespace, without dimensions', () => {
    expect(emfDocument('DeadLettersWritten', 3, 1_700_000_000_000)).toEqual({
      _aws: { Timestamp: 1_700_000_000_000, CloudWatchMetrics: [{ Namespace: 'TrackingPortal', Dimensions: [[]], Metrics: [{ Name: 'DeadLettersWritten', Unit: 'Count' }] }] },
      DeadLettersWritten: 3,
    });
  });

  it('writes one EMF line on AWS whatever the log level, nothing for 0, and only a debug log line embedded', () => {
    process.env['RUNTIME'] = 'aws';
    const lines = stdoutLines(() => {
      emitCount('AlertDeliveryFailed');
      emitCount('DeadLettersWritten', 0);
      emitCount('DeadLettersWritten', 4);
    });
    expect(lines).toEqual([
      expect.objectContaining({ AlertDeliveryFailed: 1, _aws: expect.objectContaining({ CloudWatchMetrics: [expect.objectContaining({ Namespace: 'TrackingPortal' })] }) }),
      expect.objectContaining({ DeadLettersWritten: 4 }),
    ]);
    process.env['RUNTIME'] = 'embedded';
    expect(stdoutLines(() => emitCount('AlertDeliveryFailed')).filter((l) => JSON.stringify(l).includes('_aws'))).toEqual([]);
  });
});
