/** The units capability's access-lock routes (spread into the manifest, shared/routes.ts). */
import { imeiParamSchema } from '../schemas/tracking';
import { unitLockSchema } from '../schemas/unit-lock';
import { defineRoute } from '../route-def';

const who =
  'A unit the caller may see (an admin: every unit of the account; an ordinary user: the granted ones; support: any unit); anything else 404.';

export const unitLockRoutes = {
  lockUnit: defineRoute({
    operationId: 'lockUnit',
    method: 'POST',
    path: '/api/v1/user/units/{imei}/lock',
    capability: 'units',
    file: 'lock-post-lock',
    access: 'member',
    summary: `Locks the unit's access (a benefit or private car): from now on only the caller and support see its positions, trips, events and commands; everyone else gets 423 TrackerIsLocked naming the locker. Already locked: 409 UnitAlreadyLocked (errors.lockedBy). Logged in the lock log. ${who}`,
    params: imeiParamSchema,
    response: unitLockSchema,
  }),
  unlockUnit: defineRoute({
    operationId: 'unlockUnit',
    method: 'POST',
    path: '/api/v1/user/units/{imei}/unlock',
    capability: 'units',
    file: 'lock-post-unlock',
    access: 'member',
    summary: `Unlocks the unit's access: only the locker or support (403 OnlyLockerOrSupportUnlocks); not locked: 409 UnitNotLocked. An unlock by support e-mails the locker once. Logged in the lock log. ${who}`,
    params: imeiParamSchema,
    response: unitLockSchema,
  }),
  getUnitLockLog: defineRoute({
    operationId: 'getUnitLockLog',
    method: 'GET',
    path: '/api/v1/user/units/{imei}/lock-log',
    capability: 'units',
    file: 'lock-get-log',
    access: 'member',
    summary: `The unit's lock now (who, when, whether the caller may unlock) and its lock log, newest first (at most 50 entries, of the unit's current registration). ${who}`,
    params: imeiParamSchema,
    response: unitLockSchema,
  }),
} as const;
