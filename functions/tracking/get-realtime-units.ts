import { routes } from '../../shared/routes';
import { REALTIME_PAGE_DEFAULT } from '../../shared/schemas/tracking';
import { httpHandler } from '../platform/http';
import { mapUnitsPageOf, realtimeUnitOf, realtimeUnitsOf } from './realtime-units';

/**
 * Without a query every unit in full, sorted by name (the contract); `view=map` a page of the map's
 * compact view in IMEI order (with `segments`, also where the chains to read beside it start); `imei` that one unit in full, for the details of a selected unit.
 */
export const handler = httpHandler(routes.getRealtimeUnits, async ({ auth, ports, query }) => {
  const now = ports.clock.now().getTime();
  if (query.view === 'map') return mapUnitsPageOf(auth, now, query.limit ?? REALTIME_PAGE_DEFAULT, query.cursor, query.segments);
  if (query.imei !== undefined) return realtimeUnitOf(auth, query.imei, now);
  const { units } = await realtimeUnitsOf(auth, now);
  return units.sort((a, b) => a.name.localeCompare(b.name, auth.lang) || a.imei.localeCompare(b.imei));
});
