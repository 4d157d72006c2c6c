import { routes } from '../../shared/routes';
import type { RealtimeUnit } from '../../shared/schemas/tracking';
import { httpHandler } from '../platform/http';
import { toRealtimeUnit } from './stored-shape';
import { listUnits } from './unit-repository';

export const handler = httpHandler(routes.getRealtimeUnits, async ({ auth }): Promise<RealtimeUnit[]> => {
  const units = (await listUnits(auth)).map(toRealtimeUnit);
  return units.sort((a, b) => a.name.localeCompare(b.name, auth.lang) || a.imei.localeCompare(b.imei));
});
