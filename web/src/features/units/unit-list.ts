/**
 * The units list's rules without React: which vehicle types have a label, and the sort order kept
 * in the address and asked of the server (the server searches: functions/units/unit-pages.ts).
 */
import type { SortingState } from '@tanstack/react-table';
import type { UnitsMessages } from '../../../../shared/i18n/features/units/en';
import type { UnitListSort } from '../../../../shared/schemas/units';

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

export const sortableColumns = ['name', 'registrationNumber', 'imei', 'vehicleType', 'driver', 'lastSeen', 'departments'] as const;
export type UnitColumn = (typeof sortableColumns)[number];
export const DEFAULT_SORT: SortingState = [{ id: 'name', desc: false }];

/** The columns the server orders by (an index each): the only ones while more pages are to come. */
export const serverSortable: readonly UnitColumn[] = ['name', 'imei'];

/** The server's order for the table's sorting: a column it cannot order by asks for the default, by name. */
export function serverSort(sorting: SortingState): UnitListSort {
  const [first] = sorting;
  if (!first || !(serverSortable as readonly string[]).includes(first.id)) return 'name.asc';
  return `${first.id as 'name' | 'imei'}.${first.desc ? 'desc' : 'asc'}`;
}

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
