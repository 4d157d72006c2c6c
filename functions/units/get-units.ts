import { routes } from '../../shared/routes';
import type { UnitListItem } from '../../shared/schemas/units';
import { httpHandler } from '../platform/http';
import { organisationNames } from '../organisation/organisation-items';
import { toRealtimeUnit } from '../tracking/stored-shape';
import { listUnits } from '../tracking/unit-repository';

/**
 * The units list: the map's unit shape (one mapper for both answers) without position and commands.
 * Departments and tags are carried by id and shown by their names now (functions/organisation), so a
 * rename shows at once; a department of the first, free-text data model follows as written.
 */
export const handler = httpHandler(routes.getUnits, async ({ auth }): Promise<UnitListItem[]> => {
  const [items, names] = await Promise.all([listUnits(auth), organisationNames(auth.accountId)]);
  const namesOf = (ids: readonly string[] | undefined, byId: Map<string, string>) =>
    (ids ?? []).flatMap((id) => byId.get(id) ?? []).sort((a, b) => a.localeCompare(b, auth.lang));
  const units = items.map((item): UnitListItem => {
    const { imei, name, registrationNumber, vehicleType, color, symbol, driver, departments, state, lockedBy, doutLabels } = toRealtimeUnit(item);
    return {
      imei, name, registrationNumber, vehicleType, color, symbol, driver,
      departments: [...namesOf(item.departmentIds, names.departments), ...departments],
      tags: namesOf(item.tagIds, names.tags),
      lastSeen: state?.lastSeen ?? null,
      ...(lockedBy !== undefined ? { lockedBy } : {}),
      ...(Object.keys(doutLabels).length ? { doutLabels } : {}),
    };
  });
  return units.sort((a, b) => a.name.localeCompare(b.name, auth.lang) || a.imei.localeCompare(b.imei));
});
