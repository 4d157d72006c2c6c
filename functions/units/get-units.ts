import { routes } from '../../shared/routes';
import type { UnitListItem } from '../../shared/schemas/units';
import { httpHandler } from '../platform/http';
import { toRealtimeUnit } from '../tracking/stored-shape';
import { listUnits } from '../tracking/unit-repository';

/** The units list: the map's unit shape (one mapper for both answers) without position and commands. */
export const handler = httpHandler(routes.getUnits, async ({ auth }): Promise<UnitListItem[]> => {
  const units = (await listUnits(auth)).map((item): UnitListItem => {
    const { imei, name, registrationNumber, vehicleType, color, symbol, driver, departments, state, lockedBy, doutLabels } = toRealtimeUnit(item);
    return {
      imei, name, registrationNumber, vehicleType, color, symbol, driver, departments, lastSeen: state?.lastSeen ?? null,
      ...(lockedBy !== undefined ? { lockedBy } : {}),
      ...(Object.keys(doutLabels).length ? { doutLabels } : {}),
    };
  });
  return units.sort((a, b) => a.name.localeCompare(b.name, auth.lang) || a.imei.localeCompare(b.imei));
});
