/**
 * Search in the map's unit list: the query is looked for in the name, the registration number and
 * the IMEI. Case and accents do not matter, nor do the spaces or hyphens people type inside
 * registration numbers ("ABC 123", "abc-123").
 */
import type { RealtimeUnit } from '../../../../shared/schemas/tracking';

type Searchable = Pick<RealtimeUnit, 'name' | 'registrationNumber' | 'imei'>;

/** Lower case without accents, runs of white space as one: "Å" matches "a" for someone without a Swedish keyboard. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

const compact = (text: string) => foldText(text).replace(/[\s-]+/g, '');

export function unitMatches(unit: Searchable, query: string): boolean {
  const text = foldText(query);
  if (!text) return true;
  const bare = compact(query);
  return foldText(unit.name).includes(text) || (bare !== '' && compact(unit.registrationNumber ?? '').includes(bare)) || unit.imei.includes(bare);
}

export function searchUnits<T extends Searchable>(units: readonly T[], query: string): T[] {
  return foldText(query) ? units.filter((unit) => unitMatches(unit, query)) : [...units];
}
