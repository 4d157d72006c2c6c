/**
 * Search in the map's unit list: the query is looked for in the name, the registration number and
 * the IMEI. Case and accents do not matter, nor do the spaces or hyphens people type inside
 * registration numbers ("ABC 123", "abc-123"). A unit's folded texts are made once (`searchKey`),
 * a query once (`searchQuery`): with 50,000 units a keystroke then costs one substring test per
 * text and unit.
 */
import type { MapUnit } from '../../../../shared/schemas/tracking';

type Searchable = Pick<MapUnit, 'name' | 'registrationNumber' | 'imei'>;

/** Lower case without accents, runs of white space as one: "Å" matches "a" for someone without a Swedish keyboard. */
export function foldText(text: string): string {
  // Printable ASCII has nothing to decompose and no accents to drop (most names and registration numbers).
  const decomposed = PRINTABLE_ASCII.test(text) ? text : text.normalize('NFKD').replace(/\p{M}/gu, '');
  return decomposed.toLowerCase().replace(/\s+/g, ' ').trim();
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

const compact = (text: string) => foldText(text).replace(/[\s-]+/g, '');

export interface SearchKey {
  imei: string;
  name: string;
  registrationNumber: string;
}

export interface SearchQuery {
  text: string;
  bare: string;
}

export function searchKey(unit: Searchable): SearchKey {
  return { imei: unit.imei, name: foldText(unit.name), registrationNumber: compact(unit.registrationNumber ?? '') };
}

/** Null for a query that finds everything (empty or only spaces). */
export function searchQuery(query: string): SearchQuery | null {
  const text = foldText(query);
  return text ? { text, bare: compact(query) } : null;
}

export function keyMatches(key: SearchKey, query: SearchQuery): boolean {
  return key.name.includes(query.text) || (query.bare !== '' && (key.registrationNumber.includes(query.bare) || key.imei.includes(query.bare)));
}

export function unitMatches(unit: Searchable, query: string): boolean {
  const q = searchQuery(query);
  return q === null || keyMatches(searchKey(unit), q);
}

export function searchUnits<T extends Searchable>(units: readonly T[], query: string): T[] {
  const q = searchQuery(query);
  return q ? units.filter((unit) => keyMatches(searchKey(unit), q)) : [...units];
}
