import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCoalescer } from './coalescer';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A coalescer on the fake clock, with a 16 ms animation frame. */
function setup(intervalMs: number | (() => number)) {
  const flushes: Array<{ at: number; keys: string[] | null }> = [];
  const coalescer = createCoalescer<string>((keys) => flushes.push({ at: Date.now(), keys: keys ? [...keys].sort() : null }), {
    intervalMs,
    now: () => Date.now(),
    frame: (run) => setTimeout(run, 16),
  });
  return { coalescer, flushes, start: Date.now() };
}

describe('createCoalescer', () => {
  it('flushes the first change on the next frame', () => {
    const { coalescer, flushes, start } = setup(250);
    coalescer.mark('a');
    expect(flushes).toEqual([]);
    vi.advanceTimersByTime(16);
    expect(flushes).toEqual([{ at: start + 16, keys: ['a'] }]);
  });

  it('turns a thousand messages a second into at most four flushes carrying every change once', () => {
    const { coalescer, flushes } = setup(250);
    for (let ms = 0; ms < 1000; ms++) {
      coalescer.mark(`unit-${ms % 300}`);
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(500);
    expect(flushes.length).toBeLessThanOrEqual(5);
    expect(flushes.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < flushes.length; i++) {
      expect((flushes[i]?.at ?? 0) - (flushes[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(250);
    }
    // Every unit that changed is in some flush, and a key appears at most once per flush.
    const seen = new Set(flushes.flatMap((f) => f.keys ?? []));
    expect(seen.size).toBe(300);
    for (const f of flushes) expect(new Set(f.keys).size).toBe(f.keys?.length);
  });

  it('reports a change of everything as null, absorbing single keys', () => {
    const { coalescer, flushes } = setup(100);
    coalescer.mark('a');
    coalescer.markAll();
    coalescer.mark('b');
    vi.advanceTimersByTime(20);
    expect(flushes.map((f) => f.keys)).toEqual([null]);
    coalescer.mark('c');
    vi.advanceTimersByTime(200);
    expect(flushes.map((f) => f.keys)).toEqual([null, ['c']]);
  });

  it('does nothing more once cancelled', () => {
    const { coalescer, flushes } = setup(100);
    coalescer.mark('a');
    coalescer.cancel();
    vi.advanceTimersByTime(500);
    expect(flushes).toEqual([]);
    coalescer.mark('b');
    vi.advanceTimersByTime(500);
    expect(flushes.map((f) => f.keys)).toEqual([['b']]);
  });

  it('asks an interval function before each flush: a larger fleet flushes less often', () => {
    let interval = 250;
    const { coalescer, flushes, start } = setup(() => interval);
    coalescer.mark('a');
    vi.advanceTimersByTime(16);
    interval = 1000;
    coalescer.mark('b');
    vi.advanceTimersByTime(900);
    expect(flushes).toHaveLength(1);
    vi.advanceTimersByTime(200);
    expect(flushes.map((f) => f.at - start)).toEqual([16, 16 + 1000 + 16]);
  });
});
