import { routes } from '../../shared/routes';
import type { RealtimeUnit } from '../../shared/schemas/tracking';
import { httpHandler } from '../platform/http';
import { realtimeUnitsOf } from './realtime-units';

export const handler = httpHandler(routes.getRealtimeUnits, async ({ auth, ports }): Promise<RealtimeUnit[]> => {
  const { units } = await realtimeUnitsOf(auth, ports.clock.now().getTime());
  return units.sort((a, b) => a.name.localeCompare(b.name, auth.lang) || a.imei.localeCompare(b.imei));
});
