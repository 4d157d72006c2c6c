/**
 * The pure part of ingesting messages, without I/O: filter each message's decoded positions in
 * time order against the newest accepted fix, sort a unit's positions into fresh and late, and
 * make the state the newest of them becomes. scripts/bench/ingest-cpu.ts measures exactly this
 * plus decoding.
 */
import { filterPosition, type FilterLimits, type FilterReason, type Fix } from './filter';
import { nextState } from './state';
import type { Position, UnitState } from './types';

export interface Screened {
  /** Accepted positions, oldest first, one per device time. */
  accepted: Position[];
  filtered: Partial<Record<FilterReason, number>>;
  /** Records repeating a device time already in this message. */
  repeated: number;
  /** The newest accepted position, when it is newer than `prev`: the candidate for the latest state. */
  newest: Position | undefined;
}

export function screenPositions(positions: Position[], prev: Fix | undefined, limits: FilterLimits): Screened {
  // Buffered batches arrive oldest first as a rule; sorting makes the reference fix always the newest.
  positions.sort((a, b) => a.ts - b.ts);
  const accepted: Position[] = [];
  const filtered: Partial<Record<FilterReason, number>> = {};
  let repeated = 0;
  let ref = prev;
  let newest: Position | undefined;
  for (const p of positions) {
    const last = accepted[accepted.length - 1];
    if (last && last.ts === p.ts) {
      repeated++;
      continue;
    }
    const reason = filterPosition(p, ref, limits);
    if (reason) {
      filtered[reason] = (filtered[reason] ?? 0) + 1;
      continue;
    }
    accepted.push(p);
    if (!ref || p.ts > ref.ts) {
      ref = p;
      newest = p;
    }
  }
  return { accepted, filtered, repeated, newest };
}

/** What a message of a call counts as its positions are planned. */
export interface MessageTally {
  duplicates: number;
  filtered: Partial<Record<FilterReason, number>>;
}

/** One message with positions, in arrival order among its unit's. */
export interface UnitMessage<R extends MessageTally> {
  result: R;
  /** When the broker received it, epoch ms. */
  receivedAt: number;
  positions: Position[];
}

export interface Planned<R> {
  p: Position;
  receivedAt: number;
  result: R;
}

export interface UnitPlan<R> {
  /** Newer than the unit's known state: new as a rule, written in batches. */
  fresh: Planned<R>[];
  /** At or before the known state, where redeliveries and late messages land: put only if new. */
  late: Planned<R>[];
  /** The state the fresh positions make, and the message whose record it comes from. */
  state: UnitState | undefined;
  stateFrom: R | undefined;
}

/**
 * One unit's messages of a call, screened in arrival order against the newest accepted fix, as if
 * they had come one by one: which positions are fresh and which late, and the state the fresh ones
 * make. A device time repeated across the messages counts once, for the first.
 *
 * A position from before `registeredAt` (a re-registered IMEI's tracker sending what it buffered
 * for its previous owner) is late whatever the state: it is stored if new, where the new owner's
 * reads never reach (they start at the registration), and never becomes the unit's state.
 */
export function planUnit<R extends MessageTally>(
  prev: UnitState | undefined,
  limits: Omit<FilterLimits, 'now'>,
  messages: readonly UnitMessage<R>[],
  registeredAt = -Infinity,
): UnitPlan<R> {
  const known = prev?.ts ?? -Infinity;
  const taken = new Set<number>();
  const plan: UnitPlan<R> = { fresh: [], late: [], state: undefined, stateFrom: undefined };
  let ref: Fix | undefined = prev;
  for (const m of messages) {
    const screened = screenPositions(m.positions, ref, { ...limits, now: m.receivedAt });
    m.result.filtered = screened.filtered;
    m.result.duplicates += screened.repeated;
    for (const p of screened.accepted) {
      if (taken.has(p.ts)) {
        m.result.duplicates++;
        continue;
      }
      taken.add(p.ts);
      (p.ts > known && p.ts >= registeredAt ? plan.fresh : plan.late).push({ p, receivedAt: m.receivedAt, result: m.result });
    }
    if (screened.newest && (!ref || screened.newest.ts > ref.ts)) ref = screened.newest;
  }
  if (!plan.fresh.length) return plan;
  // In device-time order, so that what a record reports carries over to the newer ones that omit it.
  const ordered = [...plan.fresh].sort((a, b) => a.p.ts - b.p.ts);
  let state = prev;
  for (const f of ordered) state = nextState(state, f.p, f.receivedAt);
  plan.state = state;
  plan.stateFrom = ordered[ordered.length - 1]?.result;
  return plan;
}
