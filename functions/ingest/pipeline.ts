/**
 * The pure part of ingesting one message, without I/O: filter its decoded positions in time order
 * against the newest accepted fix, and pick the one that may become the unit's latest state.
 * scripts/bench/ingest-cpu.ts measures exactly this plus decoding.
 */
import { filterPosition, type FilterLimits, type FilterReason, type Fix } from './filter';
import type { Position } from './types';

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
