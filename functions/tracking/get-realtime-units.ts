import { routes } from '../../shared/routes';
import type { RealtimeUnit } from '../../shared/schemas/tracking';
import { httpHandler } from '../platform/http';
import { toRealtimeUnit } from './stored-shape';
import { listUnits } from './unit-repository';
import { isLockedFor } from '../units/lock-rules';

export const handler = httpHandler(routes.getRealtimeUnits, async ({ auth }): Promise<RealtimeUnit[]> => {
  // A unit locked by someone else is listed without its position (TrackerIsLocked, naming the locker).
  const units = (await listUnits(auth)).map((item) => (isLockedFor(auth, item) ? { ...toRealtimeUnit(item), state: null } : toRealtimeUnit(item)));
  return units.sort((a, b) => a.name.localeCompare(b.name, auth.lang) || a.imei.localeCompare(b.imei));
});
