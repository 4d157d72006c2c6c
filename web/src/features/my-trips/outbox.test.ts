import { describe, expect, it } from 'vitest';
import type { Trip } from '../../../../shared/schemas/trips';
import { changedFields, runOutbox, sendOrder, tripView, verdictOf, type OutboxEntry, type Refusal, type Sender } from './outbox';

const edit = (seq: number, tripId: string, fields: Record<string, unknown>, refusal?: Refusal): OutboxEntry => ({
  seq,
  id: `key-${seq}`,
  createdAt: seq,
  change: { kind: 'edit', tripId, imei: '350000000000001', fields },
  ...(refusal ? { refusal } : {}),
});

/** A store in memory that records what the run did, in order. */
function memoryStore(entries: OutboxEntry[]) {
  const log: string[] = [];
  return {
    log,
    entries,
    store: {
      remove: async (seq: number) => {
        log.push(`remove ${seq}`);
        entries.splice(entries.findIndex((e) => e.seq === seq), 1);
      },
      markRefused: async (seq: number, refusal: Refusal) => {
        log.push(`refuse ${seq} ${refusal.key}`);
        const i = entries.findIndex((e) => e.seq === seq);
        entries[i] = { ...(entries[i] as OutboxEntry), refusal };
      },
    },
  };
}

describe('verdictOf', () => {
  it('sends 2xx, retries what may pass later, and takes other answers as the refusal of that change', () => {
    expect([200, 201, 204].map(verdictOf)).toEqual(['sent', 'sent', 'sent']);
    expect([0, 401, 408, 409, 429, 500, 502, 503].map(verdictOf)).toEqual(Array(8).fill('retry'));
    expect([400, 403, 404, 422, 423].map(verdictOf)).toEqual(Array(5).fill('refused'));
  });
});

describe('sendOrder', () => {
  it('is the order the changes were made in, without refused ones', () => {
    const refused = { status: 423, key: 'TripIsAttested', fieldErrors: {} };
    const order = sendOrder([edit(3, 'a', {}), edit(1, 'b', {}), edit(2, 'a', {}, refused), edit(10, 'c', {})]);
    expect(order.map((e) => e.seq)).toEqual([1, 3, 10]);
  });
});

describe('runOutbox', () => {
  it('sends every change in order, each with its own key, and removes each once accepted', async () => {
    const { store, log, entries } = memoryStore([edit(2, 'a', { note: 'two' }), edit(1, 'a', { type: 'private' }), edit(3, 'b', { purpose: 'x' })]);
    const sent: string[] = [];
    const result = await runOutbox([...entries], async (entry) => (sent.push(entry.id), { status: 200 }), store);
    expect(sent).toEqual(['key-1', 'key-2', 'key-3']);
    expect(log).toEqual(['remove 1', 'remove 2', 'remove 3']);
    expect(result).toEqual({ sent: 3, refused: 0, stopped: false });
    expect(entries).toEqual([]);
  });

  it('stops at a change without an answer: it and all after it wait, in order, with the same keys', async () => {
    const { store, log, entries } = memoryStore([edit(1, 'a', {}), edit(2, 'b', {}), edit(3, 'c', {})]);
    const answers = [200, 0];
    const result = await runOutbox([...entries], async () => ({ status: answers.shift() ?? 200 }), store);
    expect(result).toEqual({ sent: 1, refused: 0, stopped: true });
    expect(log).toEqual(['remove 1']);
    // The next run starts where this one stopped, with the same key.
    const next: string[] = [];
    await runOutbox([...entries], async (entry) => (next.push(entry.id), { status: 200 }), store);
    expect(next).toEqual(['key-2', 'key-3']);
  });

  it('keeps a refused change with its reason and goes on with the next one', async () => {
    const { store, log, entries } = memoryStore([edit(1, 'a', { note: 'late' }), edit(2, 'b', { note: 'fine' })]);
    const refusal = { status: 423, key: 'TripIsAttested', fieldErrors: {} };
    const result = await runOutbox([...entries], (async (entry) => (entry.seq === 1 ? { status: 423, refusal } : { status: 200 })) as Sender, store);
    expect(result).toEqual({ sent: 1, refused: 1, stopped: false });
    expect(log).toEqual(['refuse 1 TripIsAttested', 'remove 2']);
    expect(entries).toEqual([{ ...edit(1, 'a', { note: 'late' }), refusal }]);
    // A refused change is not sent again by a later run.
    const again: string[] = [];
    await runOutbox([...entries], async (entry) => (again.push(entry.id), { status: 200 }), store);
    expect(again).toEqual([]);
  });

  it('retries a 409 (the key still being applied) rather than taking it as a refusal', async () => {
    const { store, log, entries } = memoryStore([edit(1, 'a', {}), edit(2, 'a', {})]);
    const result = await runOutbox([...entries], async () => ({ status: 409 }), store);
    expect(result.stopped).toBe(true);
    expect(log).toEqual([]);
  });
});

const trip: Trip = {
  id: 't1',
  imei: '350000000000001',
  startTime: '2026-11-20T08:00:00.000+01:00',
  stopTime: '2026-11-20T08:20:00.000+01:00',
  startAddress: 'A',
  stopAddress: 'B',
  startLat: 0,
  startLon: 0,
  stopLat: 0,
  stopLon: 0,
  startOdometer: null,
  stopOdometer: null,
  distance: 12,
  type: 'business',
  purpose: null,
  note: 'old',
  driverId: null,
  driverName: null,
  passengers: null,
  project: null,
  merged: false,
  attested: false,
};

describe('tripView', () => {
  it('lays the waiting edits over the trip in order and lists refused ones apart', () => {
    const refusal = { status: 422, key: 'PurposeNotAllowed', fieldErrors: {} };
    const view = tripView(trip, [edit(2, 't1', { note: 'second' }), edit(1, 't1', { type: 'private', note: 'first' }), edit(3, 't1', { purpose: 'Nope' }, refusal), edit(4, 'other', { note: 'x' })]);
    expect(view.trip).toMatchObject({ type: 'private', note: 'second', purpose: null });
    expect(view.pending.map((e) => e.seq)).toEqual([1, 2]);
    expect(view.refused.map((e) => e.seq)).toEqual([3]);
  });
});

describe('changedFields', () => {
  it('sends only what differs; an emptied text clears the field', () => {
    expect(changedFields(trip, { type: 'business', purpose: '', note: 'old', passengers: '' })).toEqual({});
    expect(changedFields(trip, { type: 'other', purpose: ' Visit ', note: '', passengers: 'Ann' })).toEqual({ type: 'other', purpose: 'Visit', note: null, passengers: 'Ann' });
  });
});
