/**
 * The one list of vehicle types, offered by Add unit and the unit editor alike (spec section 3:
 * car, lorry, bus, boat, waterjet, machine types, bluetooth unit). A module of its own so that the
 * add-unit page does not carry the unit editor's schemas.
 */
export const vehicleTypes = [
  'car',
  'van',
  'lorry',
  'bus',
  'boat',
  'waterjet',
  'trailer',
  'tractor',
  'machine',
  'excavator',
  'wheel-loader',
  'loader',
  'dumper',
  'forklift',
  'crane',
  'roller',
  'grader',
  'bulldozer',
  'bluetooth',
] as const;
export type VehicleType = (typeof vehicleTypes)[number];

/** An older name Add unit once offered beside 'lorry' for the same vehicles: accepted, stored as 'lorry'. */
export const LEGACY_VEHICLE_TYPE_ALIASES: Readonly<Record<string, VehicleType>> = { truck: 'lorry' };
