import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScheduler } from './scheduler';

afterEach(() => {
  vi.useRealTimers();
});

describe('embedded scheduler', () => {
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

  it("runs a cron job at EventBridge's times in its time zone", async () => {
    vi.useFakeTimers({ now: new Date('2026-11-24T12:00:30Z') });
    const runs: string[] = [];
    const stop = startScheduler(
      [
        {
          job: { name: 'quarter', schedule: 'cron(0/15 * * * ? *)', timeZone: 'Europe/Stockholm', file: 'x.ts', description: '' },
          handler: async () => {
            runs.push(new Date().toISOString());
          },
        },
      ],
      () => ({}) as Context,
      () => undefined,
    );
    await vi.advanceTimersByTimeAsync(31 * 60_000);
    expect(runs.map((r) => r.slice(11, 16))).toEqual(['12:15', '12:30']);
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
