import { describe, expect, it } from 'vitest';
import { createStateWriter } from './state-writer';
import { testPosition } from '../../test/support/positions';
import { nextState } from './state';
import type { UnitState } from './types';

const state = (ts: number): UnitState => nextState(undefined, testPosition(ts, 59.33, 18.06), ts);

/** A store that holds each write until the test lets it answer, and keeps the newest state per unit as DynamoDB's condition would. */
function heldStore() {
  const stored = new Map<string, number>();
  const calls: Array<{ imei: string; ts: number; answer(error?: Error): void }> = [];
  const write = (imei: string, s: UnitState) =>
    new Promise<boolean>((resolve, reject) => {
      calls.push({
        imei,
        ts: s.ts,
        answer(error) {
          if (error) return reject(error);
          const held = stored.get(imei);
          if (held !== undefined && held >= s.ts) return resolve(false);
          stored.set(imei, s.ts);
          resolve(true);
        },
      });
    });
  return { stored, calls, write };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('state writer', () => {
  it('merges the states that arrive while one is in flight into one write of the newest', async () => {
    const store = heldStore();
    const writer = createStateWriter(store.write, 4);
    const first = writer.write('A', state(1));
    const later = [writer.write('A', state(3)), writer.write('A', state(2)), writer.write('A', state(4))];
    expect(store.calls.map((c) => c.ts)).toEqual([1]);

    store.calls[0]!.answer();
    expect(await first).toBe(true);
    await tick();
    // Three states came in meanwhile; one write carries the newest of them.
    expect(store.calls.map((c) => c.ts)).toEqual([1, 4]);
    store.calls[1]!.answer();
    expect(await Promise.all(later)).toEqual([true, true, true]);
    expect(store.stored.get('A')).toBe(4);
    expect(writer.busy()).toBe(0);
  });

  it('lets a state older than the one in flight wait for that write instead of sending it', async () => {
    const store = heldStore();
    const writer = createStateWriter(store.write, 4);
    const newer = writer.write('A', state(5));
    const older = writer.write('A', state(2));
    store.calls[0]!.answer();
    expect(await Promise.all([newer, older])).toEqual([true, true]);
    await tick();
    expect(store.calls).toHaveLength(1);
  });

  it('keeps at most `concurrency` writes in flight, first come first served', async () => {
    const store = heldStore();
    const writer = createStateWriter(store.write, 2);
    const done = ['A', 'B', 'C', 'D'].map((imei) => writer.write(imei, state(1)));
    expect(store.calls.map((c) => c.imei)).toEqual(['A', 'B']);
    store.calls[1]!.answer();
    await tick();
    expect(store.calls.map((c) => c.imei)).toEqual(['A', 'B', 'C']);
    store.calls[0]!.answer();
    await tick();
    expect(store.calls.map((c) => c.imei)).toEqual(['A', 'B', 'C', 'D']);
    store.calls[2]!.answer();
    store.calls[3]!.answer();
    expect(await Promise.all(done)).toEqual([true, true, true, true]);
  });

  it('answers false to everyone merged into a write the store refused', async () => {
    const store = heldStore();
    store.stored.set('A', 10);
    const writer = createStateWriter(store.write, 1);
    const both = [writer.write('A', state(6)), writer.write('A', state(7))];
    store.calls[0]!.answer();
    await tick();
    store.calls[1]?.answer();
    expect(await Promise.all(both)).toEqual([false, false]);
    expect(store.stored.get('A')).toBe(10);
  });

  it('fails the waiters of a failed write, and still sends what was pending behind it', async () => {
    const store = heldStore();
    const writer = createStateWriter(store.write, 1);
    const failed = writer.write('A', state(1));
    const pending = writer.write('A', state(2));
    store.calls[0]!.answer(new Error('unreachable'));
    await expect(failed).rejects.toThrow('unreachable');
    await tick();
    expect(store.calls.map((c) => c.ts)).toEqual([1, 2]);
    store.calls[1]!.answer();
    expect(await pending).toBe(true);
  });
});
