/**
 * The administration capability's routes (spread into the manifest, shared/routes.ts): the
 * account's users with their unit access, the account's settings (docs/api.md "Administration:
 * users, access, settings"), and the members' list of the account's users (spec section 7
 * user/list). docs/decisions/0025-user-administration.md.
 */
import { z } from 'zod';
import {
  accountSettingsSchema,
  accountSettingsUpdateSchema,
  accountUserListSchema,
  createdUserSchema,
  memberUsersQuerySchema,
  memberUsersSchema,
  userIdParamSchema,
  userSaveSchema,
} from '../schemas/administration';
import { defineRoute } from '../route-def';

const nothing = z.null();
const base = '/api/v1/administration';
const userRules =
  'FirstName and LastName 1..50 (SpecifyFirstName, SpecifyLastName, MaxLength50); email a valid address (EnterValidEmail), the login name, unique across all accounts also when two admins create it at once (UserEmailInUse); password optional, else the password rule (PasswordMustInclude); imeis units of the account (UserUnitNotFound), at most 95 changes of access per save (TooManyUnitChanges); the user item and each changed unit\'s viewers in one transaction.';

export const administrationRoutes = {
  getAccountUsers: defineRoute({
    operationId: 'getAccountUsers',
    method: 'GET',
    path: `${base}/users`,
    capability: 'administration',
    file: 'get-users',
    access: 'admin',
    summary: "The account's users with their admin flag and the units granted to each (an admin sees every unit).",
    response: accountUserListSchema,
  }),
  createAccountUser: defineRoute({
    operationId: 'createAccountUser',
    method: 'POST',
    path: `${base}/users`,
    capability: 'administration',
    file: 'post-user',
    access: 'admin',
    summary: `Creates a user of the account who can log in at once and sees only imeis (an admin sees all), and e-mails them a branded welcome with a single-use link to set their password (valid 7 days). ${userRules}`,
    body: userSaveSchema,
    response: createdUserSchema,
  }),
  updateAccountUser: defineRoute({
    operationId: 'updateAccountUser',
    method: 'PUT',
    path: `${base}/users/{id}`,
    capability: 'administration',
    file: 'put-user',
    access: 'admin',
    summary: `Changes a user of the account; a unit removed from imeis is gone from the user's map and live channel at once (the user's open map is told on their own live topic). The e-mail cannot change (UserEmailCannotChange); a new password ends the user's sessions; an admin cannot remove their own admin flag (CannotRemoveOwnAdmin). Another account's user: 404 UserNotFound. ${userRules}`,
    params: userIdParamSchema,
    body: userSaveSchema,
    response: nothing,
  }),
  deleteAccountUser: defineRoute({
    operationId: 'deleteAccountUser',
    method: 'DELETE',
    path: `${base}/users/{id}`,
    capability: 'administration',
    file: 'delete-user',
    access: 'admin',
    summary:
      "Deletes a user of the account: the user item, the e-mail and login name claims and the user's place in each granted unit's viewers in one transaction, then the identity; every session ends. Yourself: 422 CannotDeleteYourself; another account's user: 404 UserNotFound.",
    params: userIdParamSchema,
    response: nothing,
  }),
  getAccountSettings: defineRoute({
    operationId: 'getAccountSettings',
    method: 'GET',
    path: `${base}/settings`,
    capability: 'administration',
    file: 'get-settings',
    access: 'admin',
    summary: "The account's feature flags, working hours, market fuel price (SEK) and default purposes.",
    response: accountSettingsSchema,
  }),
  updateAccountSettings: defineRoute({
    operationId: 'updateAccountSettings',
    method: 'PUT',
    path: `${base}/settings`,
    capability: 'administration',
    file: 'put-settings',
    access: 'admin',
    summary:
      "Changes the fields sent, at once for every route of the account (a disabled feature's routes answer 403). basicOnly changes only for support (403 BasicOnlyIsSupportOnly; the same value is accepted); fuelPrice 0..1000 SEK or null (InvalidFuelPrice); fuelPrices the whole list of dated prices [{ fuelType, validFrom yyyy-MM-dd, price above 0 up to 1000 SEK per litre, kWh or kg }], at most 500, one per fuel type and day (FuelPriceTypeInvalid, FuelPriceDateInvalid, FuelPriceOutOfRange, DuplicateFuelPriceDay, TooManyFuelPrices at fuelPrices.<i>.<field>); defaultPurposes at most 50 of 1..100 characters without duplicates differing only in case, accents or white space (DuplicateDefaultPurpose, DefaultPurposeEmpty, DefaultPurposeTooLong, TooManyDefaultPurposes); workingHours days 1..7 with HH:mm times, read in the TimeZone header; ecoWeights { acceleration, braking, cornering, overspeed, idle } each 0..20 (InvalidEcoWeight), the eco score's points per harsh event per 100 km, per % of driving over the limit and per % of idling.",
    body: accountSettingsUpdateSchema,
    response: accountSettingsSchema,
  }),
  getMemberUsers: defineRoute({
    operationId: 'getMemberUsers',
    method: 'GET',
    path: '/api/v1/user/users',
    capability: 'administration',
    file: 'get-member-users',
    access: 'member',
    summary: "The account's users by name (ID, FirstName, LastName, Email, isAdmin) as data.user; limit=-1 (the default) lists all, otherwise the first limit.",
    query: memberUsersQuerySchema,
    response: memberUsersSchema,
  }),
} as const;
