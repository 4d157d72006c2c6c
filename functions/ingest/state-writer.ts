/**
 * The unit's durable latest state, written one conditional update per unit at a time, with what
 * arrives meanwhile merged into one pending write per unit: its newest state. A unit that reports
 * faster than the store takes its updates costs one write per round trip instead of one per
 * message, so a store at its limit (DynamoDB Local: about a thousand updates a second on this
 * machine; a hot partition on AWS) lags a little behind in the state instead of without bound in
 * everything. Live messages do not wait for it (ingest-message.ts publishes first).
 *
 * Every caller waits until a write that holds its state, or a newer one of the same unit, has
 * settled, and learns whether it moved the unit: Lambda may freeze the process after the
 * invocation returns, so nothing may be left in the air. Within one Lambda invocation this merges
 * the messages of one call; in the embedded runtime, where the rule bridge runs several calls at
 * once, it merges across them.
 */
import type { UnitState } from './types';

/**
 * Updates in flight at once, over all units. DynamoDB serves each on its own, so more in flight is
 * more throughput. DynamoDB Local runs every statement on one SQLite thread, on the same two cores
 * as the broker and the handlers: beyond two, updates only queue inside it, in front of the
 * positions whose writes the live channel waits for (measured with npm run bench:ingest, decision
 * 0003). Fewer updates in flight also merge more states per update.
 */
export const STATE_WRITE_CONCURRENCY = { aws: 16, embedded: 2 } as const;

type Write = (imei: string, state: UnitState) => Promise<boolean>;

interface Waiter {
  resolve(moved: boolean): void;
  reject(error: unknown): void;
}

interface Slot {
  /** In flight, and who waits for it. */
  sending?: { state: UnitState; waiters: Waiter[] };
  /** The newest state not yet sent, and who waits for it. */
  next?: { state: UnitState; waiters: Waiter[] };
}

export interface StateWriter {
  /**
   * Resolves true when the unit's stored state moved to `state` or to a newer state written in
   * the same round; false when the store already held the same or a newer one (another writer),
   * or the unit is gone. Rejects when the write failed.
   */
  write(imei: string, state: UnitState): Promise<boolean>;
  /** Units with a write in flight or pending. */
  busy(): number;
}

export function createStateWriter(write: Write, concurrency: number): StateWriter {
  const slots = new Map<string, Slot>();
  /** Units whose `next` waits for a lane, first come first served. */
  const queue: string[] = [];
  let head = 0;
  let running = 0;

  const send = (imei: string, slot: Slot) => {
    const sending = slot.next as NonNullable<Slot['next']>;
    slot.sending = sending;
    slot.next = undefined;
    running++;
    write(imei, sending.state).then(
      (moved) => sending.waiters.forEach((w) => w.resolve(moved)),
      (error: unknown) => sending.waiters.forEach((w) => w.reject(error)),
    ).finally(() => {
      running--;
      slot.sending = undefined;
      if (slot.next) queue.push(imei);
      else slots.delete(imei);
      pump();
    });
  };

  const pump = () => {
    while (running < concurrency && head < queue.length) {
      const imei = queue[head++] as string;
      const slot = slots.get(imei);
      if (slot?.next && !slot.sending) send(imei, slot);
    }
    if (head === queue.length) {
      queue.length = 0;
      head = 0;
    }
  };

  return {
    write(imei, state) {
      return new Promise<boolean>((resolve, reject) => {
        const waiter = { resolve, reject };
        let slot = slots.get(imei);
        if (!slot) {
          slot = {};
          slots.set(imei, slot);
        }
        if (slot.next) {
          if (state.ts > slot.next.state.ts) slot.next.state = state;
          slot.next.waiters.push(waiter);
        } else if (slot.sending && state.ts <= slot.sending.state.ts) {
          // Older than the write in flight: that write answers for it too.
          slot.sending.waiters.push(waiter);
        } else {
          slot.next = { state, waiters: [waiter] };
          if (!slot.sending) queue.push(imei);
        }
        pump();
      });
    },
    busy: () => slots.size,
  };
}
