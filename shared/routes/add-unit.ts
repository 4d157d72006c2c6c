/** The units capability's add-unit routes for account admins (spread into the manifest, shared/routes.ts). */
import { addedUnitSchema, addUnitRequestSchema, grantableUsersSchema } from '../schemas/add-unit';
import { defineRoute } from '../route-def';

export const addUnitRoutes = {
  addUnit: defineRoute({
    operationId: 'addUnit',
    method: 'POST',
    path: '/api/v1/administration/units',
    capability: 'units',
    file: 'add-unit-post',
    access: 'admin',
    summary:
      "Adds a tracker from the inventory to the caller's account, with its name and vehicle type, granted to the chosen ordinary users of the account, in one transaction. The IMEI as registration checks it: SpecifyValidUnitImei, ImeiNotNumeric, ImeiNot15Digits, InvalidImei, then ImeiNotInSystem or ImeiAlreadyRegistered (also when another admin added it at the same time); name 1..50 (SpecifyUnitName, UnitNameTooLong); vehicleType one of the list (SelectVehicleType); userIds ordinary users of the account (GrantUserNotFound), at most 90 (TooManyGrantUsers).",
    body: addUnitRequestSchema,
    response: addedUnitSchema,
  }),
  getGrantableUsers: defineRoute({
    operationId: 'getGrantableUsers',
    method: 'GET',
    path: '/api/v1/administration/units/grantable-users',
    capability: 'units',
    file: 'add-unit-get-users',
    access: 'admin',
    summary: 'The ordinary users of the account a new unit can be granted to, by name (admins see every unit).',
    response: grantableUsersSchema,
  }),
} as const;
