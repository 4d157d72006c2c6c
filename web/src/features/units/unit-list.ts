/**
 * The units list's rules without React: which vehicle types have a label, what a search matches,
 * how "last seen" reads, and the sort order kept in the address.
 */
import type { SortingState } from '@tanstack/react-table';
import type { UnitsMessages } from '../../../../shared/i18n/features/units/en';
import type { UnitListItem } from '../../../../shared/schemas/units';

type UnitsKey = keyof UnitsMessages;

const vehicleTypeKeys: Readonly<Record<string, UnitsKey>> = {
  car: 'UnitsTypeCar',
  van: 'UnitsTypeVan',
  lorry: 'UnitsTypeLorry',
  truck: 'UnitsTypeTruck',
  bus: 'UnitsTypeBus',
  boat: 'UnitsTypeBoat',
  waterjet: 'UnitsTypeWaterjet',
  trailer: 'UnitsTypeTrailer',
  tractor: 'UnitsTypeTractor',
  bluetooth: 'UnitsTypeBluetooth',
  machine: 'UnitsTypeMachine',
  excavator: 'UnitsTypeExcavator',
  'wheel-loader': 'UnitsTypeWheelLoader',
  loader: 'UnitsTypeLoader',
  dumper: 'UnitsTypeDumper',
  forklift: 'UnitsTypeForklift',
  crane: 'UnitsTypeCrane',
  roller: 'UnitsTypeRoller',
  grader: 'UnitsTypeGrader',
  bulldozer: 'UnitsTypeBulldozer',
};

/** The text key of a vehicle type, or null for a type we have no label for (shown as stored). */
export function vehicleTypeKey(vehicleType: string): UnitsKey | null {
  return vehicleTypeKeys[vehicleType.toLowerCase()] ?? null;
}

/** A vehicle type's name in the user's language, the same on every page (as stored when we have no name for it). */
export function vehicleTypeLabel(t: (key: UnitsKey) => string, vehicleType: string): string {
  const key = vehicleTypeKey(vehicleType);
  return key ? t(key) : vehicleType;
}

/** The Intl locale of a portal language: British English (24-hour clock), Norwegian bokmål. */

/**
 * Whether a unit matches the search: every word of the query appears in its name, registration
 * number, IMEI, driver or a department, ignoring case. Words may hit different fields ("kim north"),
 * and a plate typed with a space ("ABC 123") still finds ABC123.
 */
export function matchesUnit(unit: UnitListItem, query: string, locale: string): boolean {
  const words = query.trim().toLocaleLowerCase(locale).split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const fields = [unit.name, unit.registrationNumber ?? '', unit.imei, unit.driver ?? '', ...unit.departments].map((f) => f.toLocaleLowerCase(locale));
  return words.every((word) => fields.some((field) => field.includes(word)));
}

export const sortableColumns = ['name', 'registrationNumber', 'imei', 'vehicleType', 'driver', 'lastSeen', 'departments'] as const;
export type UnitColumn = (typeof sortableColumns)[number];
export const DEFAULT_SORT: SortingState = [{ id: 'name', desc: false }];

/** `?sort=lastSeen.desc` to the table's sorting; anything else is the default, by name. */
export function parseSort(param: string | null): SortingState {
  const match = /^(\w+)\.(asc|desc)$/.exec(param ?? '');
  const id = match?.[1];
  if (!id || !(sortableColumns as readonly string[]).includes(id)) return DEFAULT_SORT;
  return [{ id, desc: match[2] === 'desc' }];
}

/** The table's sorting for the address; null for the default, which needs no parameter. */
export function formatSort(sorting: SortingState): string | null {
  const [first] = sorting;
  if (!first || (first.id === 'name' && !first.desc)) return null;
  return `${first.id}.${first.desc ? 'desc' : 'asc'}`;
}
