/** The reconciliation plan of re-detection, without I/O. */
import { describe, expect, it } from 'vitest';
import type { DetectedTrip } from './detect';
import { overlapMs, reconcile } from './reconcile';
import { partOf, type TripItem } from './trip-item';

const MIN = 60_000;
const T0 = Date.parse('2025-03-10T07:00:00Z');

function detected(startMin: number, stopMin: number, distanceM = (stopMin - startMin) * 800): DetectedTrip {
  return {
    startTs: T0 + startMin * MIN,
    stopTs: T0 + stopMin * MIN,
    startLat: 59.3,
    startLon: 18.0,
    stopLat: 59.4,
    stopLon: 18.1,
    distanceM,
    startCounterM: startMin * 1000,
    stopCounterM: startMin * 1000 + distanceM,
    counterSource: 'computed',
    maxSpeedKmh: 80,
    basis: 'ignition',
  };
}

function stored(d: DetectedTrip, extra: Partial<TripItem> = {}): TripItem {
  return {
    imei: '356938035643809',
    accountId: 'acc',
    ...d,
    startAddress: undefined,
    stopAddress: undefined,
    type: 'business',
    purpose: undefined,
    note: undefined,
    driverId: undefined,
    passengers: undefined,
    project: undefined,
    edited: undefined,
    editedAt: undefined,
    editedBy: undefined,
    expiresAt: undefined,
    joined: undefined,
    attestationId: undefined,
    v: 0,
    ...extra,
  };
}

describe('reconcile', () => {
  it('leaves trips the detector reproduces untouched', () => {
    const a = detected(0, 20);
    const b = detected(60, 90);
    const plan = reconcile([stored(a), stored(b)], [a, b], { tailOpen: false });
    expect(plan.add).toEqual([]);
    expect(plan.remove).toEqual([]);
    expect(plan.unchanged.map((t) => t.startTs)).toEqual([a.startTs, b.startTs]);
  });

  it('deletes trips that are gone and adds new ones; one of the same start is replaced in place', () => {
    const a = detected(0, 20);
    const old = stored(detected(60, 90));
    const longer = detected(60, 100);
    const fresh = detected(200, 230);
    const plan = reconcile([stored(a), old], [a, longer, fresh], { tailOpen: false });
    expect(plan.remove).toEqual([]);
    expect(plan.add.map((n) => [n.detected, n.replaces])).toEqual([
      [longer, old],
      [fresh, undefined],
    ]);

    const gone = reconcile([stored(a), old], [a], { tailOpen: false });
    expect(gone.remove).toEqual([old]);
    expect(gone.add).toEqual([]);
  });

  it('carries a user edit to the new trip that overlaps the edited one most', () => {
    const edited = stored(detected(60, 120), { purpose: 'Customer visit', type: 'private', edited: ['purpose', 'type'] });
    // Late data split the trip in two: 60-80 and 85-120, the second overlaps more.
    const first = detected(60, 80);
    const second = detected(85, 120);
    const plan = reconcile([edited], [first, second], { tailOpen: false });
    expect(plan.add.find((n) => n.detected === second)?.carried).toEqual({ from: edited, fields: ['purpose', 'type'] });
    expect(plan.add.find((n) => n.detected === first)?.carried).toBeUndefined();
    // The edited trip had the first one's start: replaced in place, the edits go elsewhere.
    expect(plan.add.find((n) => n.detected === first)?.replaces).toBe(edited);
  });

  it('gives a new trip the edits of the old trip overlapping it most when two want it', () => {
    const small = stored(detected(0, 10), { note: 'small', edited: ['note'] });
    const large = stored(detected(12, 60), { note: 'large', edited: ['note'] });
    const joined = detected(0, 60);
    const plan = reconcile([small, large], [joined], { tailOpen: false });
    expect(plan.add).toHaveLength(1);
    expect(plan.add[0]?.carried?.from).toBe(large);
    expect(plan.remove).toEqual([large]);
  });

  it('never touches an attested trip and drops what the detector finds over it', () => {
    const locked = stored(detected(0, 30), { attestationId: 'a1' });
    const over = detected(5, 40);
    const after = detected(100, 120);
    const plan = reconcile([locked], [over, after], { tailOpen: false });
    expect(plan.unchanged).toEqual([locked]);
    expect(plan.remove).toEqual([]);
    expect(plan.skipped).toEqual([over]);
    expect(plan.add.map((n) => n.detected)).toEqual([after]);
  });

  it('keeps a merged trip while both trips it joined are reproduced, and replaces it otherwise', () => {
    const a = detected(0, 20);
    const b = detected(25, 50);
    const first = stored(a);
    const second = stored(b);
    const merged: TripItem = { ...first, stopTs: b.stopTs, distanceM: a.distanceM + b.distanceM, stopCounterM: b.stopCounterM, joined: [partOf(first), partOf(second)], purpose: 'Joined', edited: ['purpose'] };
    expect(reconcile([merged], [a, b], { tailOpen: false })).toMatchObject({ add: [], remove: [], unchanged: [merged] });

    const changed = detected(25, 55);
    const plan = reconcile([merged], [a, changed], { tailOpen: false });
    expect(plan.add.map((n) => n.detected)).toEqual([a, changed]);
    expect(plan.add[0]?.replaces).toBe(merged);
    // The merged trip (0-50) overlaps the changed second trip (25-55) most.
    expect(plan.add[1]?.carried?.fields).toEqual(['purpose']);
    expect(plan.add[0]?.carried).toBeUndefined();
  });

  it('keeps what lies beyond the window and the tail it cannot close yet', () => {
    const a = detected(0, 20);
    const tail = stored(detected(60, 90));
    expect(reconcile([stored(a), tail], [a], { tailOpen: true }).unchanged).toHaveLength(2);
    expect(reconcile([stored(a), tail], [a], { tailOpen: false }).remove).toEqual([tail]);
    // A detected trip stopping after the limit belongs to what comes next.
    const beyond = detected(60, 200);
    const plan = reconcile([stored(a), tail], [a, beyond], { tailOpen: false, limitTs: T0 + 120 * MIN });
    expect(plan).toMatchObject({ add: [], remove: [] });
  });

  it('measures overlap, a trip of no duration counting as a millisecond', () => {
    expect(overlapMs({ startTs: 0, stopTs: 10 }, { startTs: 5, stopTs: 20 })).toBe(5);
    expect(overlapMs({ startTs: 0, stopTs: 10 }, { startTs: 10, stopTs: 20 })).toBe(0);
    expect(overlapMs({ startTs: 5, stopTs: 5 }, { startTs: 0, stopTs: 20 })).toBe(1);
  });
});
