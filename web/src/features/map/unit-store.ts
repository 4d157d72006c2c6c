/**
 * The units the map shows, kept outside React: the pages of the realtime units' map view fill it
 * (each page as it arrives, so the map draws the first while the next loads), live `position`
 * messages move single units. The map source and the list read it at their own pace (see
 * coalescer.ts), so a burst of live messages costs a Map update each and no render.
 */
import type { LivePositionMessage } from '../../../../shared/schemas/live';
import type { MapUnit } from '../../../../shared/schemas/tracking';

/** What changed: one unit's IMEI, or null when the whole set may have. */
export type UnitChangeListener = (imei: string | null) => void;

/**
 * What the store holds of a unit: the map's view of it (a full StoredUnit serves as well). A live
 * position brings the unit's whole state, so a moved unit's state has every field of UnitState.
 */
export type StoredUnit = MapUnit;
type StoredState = NonNullable<StoredUnit['state']>;

export interface UnitStore {
  /** A fresh answer of GET /realtime/units; a live state newer than the answer's is kept. */
  replaceAll(units: readonly StoredUnit[]): void;
  /**
   * A reload in pages: `beginLoad`, then each page with `addPage` (its units appear or are renewed
   * at once, each told by IMEI), then `endLoad`, which removes the units no page of this load had.
   */
  beginLoad(): void;
  addPage(units: readonly StoredUnit[]): void;
  endLoad(): void;
  /** A live position; false when it is not newer than what the unit shows, or the unit is not here. */
  applyPosition(message: LivePositionMessage): boolean;
  /** The unit is no longer the user's to see (its access was revoked); false when it was not here. */
  remove(imei: string): boolean;
  get(imei: string): StoredUnit | undefined;
  /** Every unit, in the order of the last answer. */
  all(): readonly StoredUnit[];
  /** How many units it holds. */
  size(): number;
  /**
   * The units as of the last replaceAll: the same array until the set of units (or their names,
   * registration numbers, colours) may have changed. Their states may be older than get() says.
   */
  roster(): readonly StoredUnit[];
  subscribe(listener: UnitChangeListener): () => void;
}

const newer = (a: StoredState, b: StoredState) => Date.parse(a.ts) > Date.parse(b.ts);

function stateOf(message: LivePositionMessage): StoredState {
  const { type: _type, imei: _imei, ...state } = message;
  return state;
}

export function createUnitStore(): UnitStore {
  let units = new Map<string, StoredUnit>();
  let roster: readonly StoredUnit[] = [];
  let cachedAll: StoredUnit[] | null = [];
  const listeners = new Set<UnitChangeListener>();
  /** The IMEIs of the load in progress. */
  let loaded: Set<string> | null = null;

  /** The answer may have been read before a live message that already arrived: the newer state stays. */
  const merged = (unit: StoredUnit): StoredUnit => {
    const known = units.get(unit.imei)?.state;
    return known && (!unit.state || newer(known, unit.state)) ? { ...unit, state: known } : unit;
  };

  const emit = (imei: string | null) => {
    for (const listener of [...listeners]) listener(imei);
  };

  return {
    replaceAll(fresh) {
      const next = new Map<string, StoredUnit>();
      for (const unit of fresh) next.set(unit.imei, merged(unit));
      units = next;
      loaded = null;
      roster = [...next.values()];
      cachedAll = null;
      emit(null);
    },
    beginLoad() {
      loaded = new Set();
    },
    addPage(page) {
      for (const unit of page) {
        units.set(unit.imei, merged(unit));
        loaded?.add(unit.imei);
      }
      roster = [...units.values()];
      cachedAll = null;
      for (const unit of page) emit(unit.imei);
    },
    endLoad() {
      const seen = loaded;
      loaded = null;
      if (!seen) return;
      const gone = [...units.keys()].filter((imei) => !seen.has(imei));
      for (const imei of gone) units.delete(imei);
      if (!gone.length) return;
      roster = [...units.values()];
      cachedAll = null;
      for (const imei of gone) emit(imei);
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
    size: () => units.size,
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
