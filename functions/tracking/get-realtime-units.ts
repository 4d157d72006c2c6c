import { routes } from '../../shared/routes';
import type { RealtimeUnit } from '../../shared/schemas/tracking';
import { httpHandler } from '../platform/http';
import { toRealtimeUnit } from './stored-shape';
import { listUnits } from './unit-repository';
import { isLockedFor } from '../units/lock-rules';
import { accountWorkingHours, lockedUnitsVisibleTo } from './working-hours';

export const handler = httpHandler(routes.getRealtimeUnits, async ({ auth, ports }): Promise<RealtimeUnit[]> => {
  const [items, hours] = await Promise.all([listUnits(auth), auth.isAdmin ? accountWorkingHours(auth.accountId) : Promise.resolve(undefined)]);
  // A unit locked by someone else is listed without its position (TrackerIsLocked, naming the locker),
  // except to an admin during the account's working hours when it enables them (spec section 6).
  const showLocked = lockedUnitsVisibleTo(auth, hours, ports.clock.now().getTime());
  const units = items.map((item) => (isLockedFor(auth, item) && !showLocked ? { ...toRealtimeUnit(item), state: null } : toRealtimeUnit(item)));
  return units.sort((a, b) => a.name.localeCompare(b.name, auth.lang) || a.imei.localeCompare(b.imei));
});
