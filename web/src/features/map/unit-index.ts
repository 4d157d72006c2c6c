/**
 * The map list's units in name order with their search keys, kept up to date as pages arrive
 * instead of sorted and folded afresh: at 50,000 units one locale-aware sort costs a quarter of a
 * second of the main thread, a page of 5,000 merged into the order about a tenth of that. `sync`
 * takes the store's roster (a new array whenever units came, went or were renamed) and sorts only
 * what is new or renamed; `search` filters the order by precomputed keys, the last answer cached.
 */
import type { MapUnit } from '../../../../shared/schemas/tracking';
import { keyMatches, searchKey, searchQuery, type SearchKey } from './unit-search';

type Indexed = Pick<MapUnit, 'imei' | 'name' | 'registrationNumber'>;

interface Entry {
  name: string;
  registrationNumber: string | null;
  key: SearchKey;
}

export interface UnitIndex {
  /** Brings the index up to this roster; false when nothing changed. */
  sync(roster: readonly Indexed[]): boolean;
  /** IMEIs in name order (ties by IMEI). */
  sorted(): readonly string[];
  /** The IMEIs whose unit matches the query, in name order. */
  search(query: string): readonly string[];
}

export function createUnitIndex(compareNames: (a: string, b: string) => number): UnitIndex {
  const entries = new Map<string, Entry>();
  // The order, and beside it each unit's name and search key: the merge and the search read arrays, not the map.
  let order: string[] = [];
  let names: string[] = [];
  let keys: SearchKey[] = [];
  let lastRoster: readonly Indexed[] | null = null;
  let cached: { query: string; order: readonly string[]; found: readonly string[] } | null = null;

  const compare = (nameA: string, imeiA: string, nameB: string, imeiB: string) => compareNames(nameA, nameB) || (imeiA < imeiB ? -1 : imeiA > imeiB ? 1 : 0);

  /** Where `name`/`imei` goes in the kept order, searching from `from` on (binary search). */
  function position(keptNames: readonly string[], keptOrder: readonly string[], name: string, imei: string, from: number): number {
    let low = from;
    let high = keptOrder.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(keptNames[middle] as string, keptOrder[middle] as string, name, imei) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  return {
    sync(roster) {
      if (roster === lastRoster) return false;
      const before = lastRoster;
      lastRoster = roster;
      const added: string[] = [];
      const dropped = new Set<string>();
      const seen = new Set<string>();
      let rekeyed = false;
      // While pages arrive, the roster is the one before with the new units after it: the same unit
      // objects in the same places need no look-up, and none of the units indexed is gone.
      let from = 0;
      if (before && roster.length >= before.length) {
        while (from < before.length && roster[from] === before[from]) from++;
        if (from < before.length) from = 0;
      }
      const appended = from > 0;
      for (let at = from; at < roster.length; at++) {
        const unit = roster[at] as Indexed;
        if (!appended) seen.add(unit.imei);
        const entry = entries.get(unit.imei);
        if (entry && entry.name === unit.name && entry.registrationNumber === unit.registrationNumber) continue;
        if (entry && entry.name !== unit.name) dropped.add(unit.imei);
        entries.set(unit.imei, { name: unit.name, registrationNumber: unit.registrationNumber, key: searchKey(unit) });
        if (!entry || entry.name !== unit.name) added.push(unit.imei);
        else rekeyed = true;
      }
      if (!appended && entries.size > seen.size) {
        for (const imei of entries.keys()) {
          if (!seen.has(imei)) {
            entries.delete(imei);
            dropped.add(imei);
          }
        }
      }
      if (rekeyed) {
        cached = null;
        // A dropped unit's old key stays until the drop below leaves it out.
        keys = order.map((imei, i) => entries.get(imei)?.key ?? (keys[i] as SearchKey));
      }
      if (!added.length && !dropped.size) return rekeyed;
      let keptOrder = order;
      let keptNames = names;
      let keptKeys = keys;
      if (dropped.size) {
        keptOrder = [];
        keptNames = [];
        keptKeys = [];
        for (let i = 0; i < order.length; i++) {
          if (dropped.has(order[i] as string)) continue;
          keptOrder.push(order[i] as string);
          keptNames.push(names[i] as string);
          keptKeys.push(keys[i] as SearchKey);
        }
      }
      const addedNames = added.map((imei) => (entries.get(imei) as Entry).name);
      const byName = added.map((_, i) => i).sort((a, b) => compare(addedNames[a] as string, added[a] as string, addedNames[b] as string, added[b] as string));
      // Each new unit's place is found by binary search from the previous one's, the kept runs between copied whole.
      const nextOrder: string[] = [];
      const nextNames: string[] = [];
      const nextKeys: SearchKey[] = [];
      let start = 0;
      for (const i of byName) {
        const name = addedNames[i] as string;
        const imei = added[i] as string;
        const at = position(keptNames, keptOrder, name, imei, start);
        for (let j = start; j < at; j++) {
          nextOrder.push(keptOrder[j] as string);
          nextNames.push(keptNames[j] as string);
          nextKeys.push(keptKeys[j] as SearchKey);
        }
        start = at;
        nextOrder.push(imei);
        nextNames.push(name);
        nextKeys.push((entries.get(imei) as Entry).key);
      }
      for (let j = start; j < keptOrder.length; j++) {
        nextOrder.push(keptOrder[j] as string);
        nextNames.push(keptNames[j] as string);
        nextKeys.push(keptKeys[j] as SearchKey);
      }
      order = nextOrder;
      names = nextNames;
      keys = nextKeys;
      return true;
    },
    sorted: () => order,
    search(query) {
      if (cached && cached.query === query && cached.order === order) return cached.found;
      const q = searchQuery(query);
      let found: readonly string[] = order;
      if (q) {
        const matching: string[] = [];
        for (let i = 0; i < keys.length; i++) if (keyMatches(keys[i] as SearchKey, q)) matching.push(order[i] as string);
        found = matching;
      }
      cached = { query, order, found };
      return found;
    },
  };
}
