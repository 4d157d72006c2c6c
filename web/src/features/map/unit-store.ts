/**
 * The units the map shows, kept outside React: the realtime units answer fills it, live `position`
 * messages move single units. The map source and the list read it at their own pace (see
 * coalescer.ts), so a burst of live messages costs a Map update each and no render.
 */
import type { LivePositionMessage } from '../../../../shared/schemas/live';
import type { RealtimeUnit, UnitState } from '../../../../shared/schemas/tracking';

/** What changed: one unit's IMEI, or null when the whole set may have. */
export type UnitChangeListener = (imei: string | null) => void;

export interface UnitStore {
  /** A fresh answer of GET /realtime/units; a live state newer than the answer's is kept. */
  replaceAll(units: readonly RealtimeUnit[]): void;
  /** A live position; false when it is not newer than what the unit shows, or the unit is not here. */
  applyPosition(message: LivePositionMessage): boolean;
  /** The unit is no longer the user's to see (its access was revoked); false when it was not here. */
  remove(imei: string): boolean;
  get(imei: string): RealtimeUnit | undefined;
  /** Every unit, in the order of the last answer. */
  all(): readonly RealtimeUnit[];
  /**
   * The units as of the last replaceAll: the same array until the set of units (or their names,
   * registration numbers, colours) may have changed. Their states may be older than get() says.
   */
  roster(): readonly RealtimeUnit[];
  subscribe(listener: UnitChangeListener): () => void;
}

const newer = (a: UnitState, b: UnitState) => Date.parse(a.ts) > Date.parse(b.ts);

function stateOf(message: LivePositionMessage): UnitState {
  const { type: _type, imei: _imei, ...state } = message;
  return state;
}

export function createUnitStore(): UnitStore {
  let units = new Map<string, RealtimeUnit>();
  let roster: readonly RealtimeUnit[] = [];
  let cachedAll: RealtimeUnit[] | null = [];
  const listeners = new Set<UnitChangeListener>();

  const emit = (imei: string | null) => {
    for (const listener of [...listeners]) listener(imei);
  };

  return {
    replaceAll(fresh) {
      const next = new Map<string, RealtimeUnit>();
      for (const unit of fresh) {
        const known = units.get(unit.imei)?.state;
        // The answer may have been read before a live message that already arrived.
        const keep = known && (!unit.state || newer(known, unit.state));
        next.set(unit.imei, keep ? { ...unit, state: known } : unit);
      }
      units = next;
      roster = [...next.values()];
      cachedAll = null;
      emit(null);
    },
    applyPosition(message) {
      const unit = units.get(message.imei);
      if (!unit) return false;
      const state = stateOf(message);
      if (unit.state && !newer(state, unit.state)) return false;
      units.set(message.imei, { ...unit, state });
      cachedAll = null;
      emit(message.imei);
      return true;
    },
    remove(imei) {
      if (!units.delete(imei)) return false;
      roster = roster.filter((u) => u.imei !== imei);
      cachedAll = null;
      emit(null);
      return true;
    },
    get: (imei) => units.get(imei),
    all() {
      cachedAll ??= [...units.values()];
      return cachedAll;
    },
    roster: () => roster,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
