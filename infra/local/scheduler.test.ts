import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rateMs, startScheduler } from './scheduler';

afterEach(() => {
  vi.useRealTimers();
});

describe('embedded scheduler', () => {
  it('reads EventBridge rate expressions and refuses what it cannot run', () => {
    expect(rateMs('rate(1 minute)')).toBe(60_000);
    expect(rateMs('rate(5 minutes)')).toBe(300_000);
    expect(rateMs('rate(2 hours)')).toBe(7_200_000);
    expect(rateMs('rate(1 day)')).toBe(86_400_000);
    expect(() => rateMs('cron(0 3 * * ? *)')).toThrow(/rate/);
  });

  it('invokes each job with its name on every tick, never overlapping a run still going', async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    let release: () => void = () => undefined;
    const handler = vi.fn(async (event: { job: string }) => {
      calls.push(event.job);
      await new Promise<void>((r) => (release = r));
    });
    const stop = startScheduler(
      [{ job: { name: 'command-timeouts', schedule: 'rate(1 minute)', file: 'x.ts', description: '' }, handler }],
      () => ({}) as Context,
      () => undefined,
    );
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toEqual(['command-timeouts']);
    release();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toEqual(['command-timeouts', 'command-timeouts']);
    release();
    await stop();
  });

  it('reports a failing job and keeps the timer', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    const stop = startScheduler(
      [{ job: { name: 'j', schedule: 'rate(1 minute)', file: 'x.ts', description: '' }, handler: async () => Promise.reject(new Error('boom')) }],
      () => ({}) as Context,
      (_job, e) => errors.push(e),
    );
    await vi.advanceTimersByTimeAsync(120_000);
    expect(errors).toHaveLength(2);
    await stop();
  });
});
