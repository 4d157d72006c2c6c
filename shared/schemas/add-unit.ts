/**
 * Adding a unit (spec section 2 /administration/add-terminal): an account admin adds another
 * tracker from the inventory to the account, names it, chooses its vehicle type and grants it to
 * ordinary users of the account. The IMEI is checked as registration checks it (format keys of
 * shared/schemas/registration.ts, then ImeiNotInSystem / ImeiAlreadyRegistered), and the unit, the
 * IMEI claim, the inventory item and the grants are written in one transaction.
 */
import { z } from 'zod';
import { imeiField } from './registration';
import { LEGACY_VEHICLE_TYPE_ALIASES, vehicleTypes, type VehicleType } from './vehicle-types';

export const addUnitMessageKeys = {
  SpecifyValidUnitImei: 'SpecifyValidUnitImei',
  SpecifyUnitName: 'SpecifyUnitName',
  UnitNameTooLong: 'UnitNameTooLong',
  SelectVehicleType: 'SelectVehicleType',
  /** A user id that is not an ordinary user of the account (admins see every unit anyway). */
  GrantUserNotFound: 'GrantUserNotFound',
  TooManyGrantUsers: 'TooManyGrantUsers',
} as const;
const keys = addUnitMessageKeys;

export const UNIT_NAME_MAX = 50;
/** Users one request may grant the new unit to (a DynamoDB transaction holds at most 100 items). */
export const ADD_UNIT_MAX_USERS = 90;

/**
 * A unit is added as one of the vehicle types (their markers: shared/schemas/tracking.ts
 * defaultMarker); 'truck', which Add unit once offered beside 'lorry', is still accepted and stored
 * as 'lorry'.
 */
const addUnitVehicleTypeInput = [...vehicleTypes, 'truck'] as const;

export const addUnitRequestSchema = z.object({
  imei: imeiField(keys.SpecifyValidUnitImei),
  name: z
    .string(keys.SpecifyUnitName)
    .trim()
    .min(1, keys.SpecifyUnitName)
    .max(UNIT_NAME_MAX, keys.UnitNameTooLong),
  vehicleType: z.enum(addUnitVehicleTypeInput, keys.SelectVehicleType).transform((type): VehicleType => LEGACY_VEHICLE_TYPE_ALIASES[type] ?? (type as VehicleType)),
  /** Ordinary users of the account who get the unit (admins see every unit). */
  userIds: z
    .array(z.string().min(1, keys.GrantUserNotFound), keys.GrantUserNotFound)
    .max(ADD_UNIT_MAX_USERS, keys.TooManyGrantUsers)
    .default([])
    .transform((ids) => [...new Set(ids)]),
});
export type AddUnitRequest = z.input<typeof addUnitRequestSchema>;

export const addedUnitSchema = z.object({ imei: z.string(), name: z.string(), vehicleType: z.string(), userIds: z.array(z.string()) });
export type AddedUnit = z.infer<typeof addedUnitSchema>;

/** The ordinary users of the account a new unit can be granted to. */
export const grantableUsersSchema = z.object({
  users: z.array(z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() })),
});
export type GrantableUsers = z.infer<typeof grantableUsersSchema>;
