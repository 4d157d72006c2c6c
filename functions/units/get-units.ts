import { routes } from '../../shared/routes';
import { UNIT_LIST_WHOLE_MAX, UNIT_PAGE_DEFAULT, type UnitListItem, type UnitPage } from '../../shared/schemas/units';
import type { UnitItem } from '../domain/unit/schema';
import { httpHandler } from '../platform/http';
import { ValidationError } from '../platform/errors';
import { organisationNames } from '../organisation/organisation-items';
import { toRealtimeUnit } from '../tracking/stored-shape';
import { decodeCursor, encodeCursor, normaliseQuery, unitPage, wholeList } from './unit-pages';

/**
 * The units list: the map's unit shape (one mapper for both answers) without position and commands.
 * Departments and tags are carried by id and shown by their names now (functions/organisation), so a
 * rename shows at once; a department of the first, free-text data model follows as written.
 *
 * Without `q`, `sort`, `limit` or `cursor` the answer is the whole list (as before paging), for an
 * account of at most UNIT_LIST_WHOLE_MAX units; with any of them it is a page (unit-pages.ts).
 */
export const handler = httpHandler(routes.getUnits, async ({ auth, query }): Promise<UnitListItem[] | UnitPage> => {
  const paged = query.q !== undefined || query.sort !== undefined || query.limit !== undefined || query.cursor !== undefined;
  const names = await organisationNames(auth.accountId);
  const namesOf = (ids: readonly string[] | undefined, byId: Map<string, string>) =>
    (ids ?? []).flatMap((id) => byId.get(id) ?? []).sort((a, b) => a.localeCompare(b, auth.lang));
  const listed = (item: UnitItem): UnitListItem => {
    const { imei, name, registrationNumber, vehicleType, color, symbol, driver, departments, state, lockedBy, doutLabels } = toRealtimeUnit(item);
    return {
      imei, name, registrationNumber, vehicleType, color, symbol, driver,
      departments: [...namesOf(item.departmentIds, names.departments), ...departments],
      tags: namesOf(item.tagIds, names.tags),
      lastSeen: state?.lastSeen ?? null,
      ...(lockedBy !== undefined ? { lockedBy } : {}),
      ...(Object.keys(doutLabels).length ? { doutLabels } : {}),
    };
  };

  if (!paged) {
    const items = await wholeList(auth, UNIT_LIST_WHOLE_MAX);
    if (!items) throw new ValidationError({ limit: ['UnitListTooLarge'] }, 'UnitListTooLarge');
    return items.map(listed).sort((a, b) => a.name.localeCompare(b.name, auth.lang) || a.imei.localeCompare(b.imei));
  }

  const sort = query.sort ?? 'name.asc';
  const q = normaliseQuery(query.q);
  const after = query.cursor === undefined ? null : decodeCursor(query.cursor, sort, q);
  const page = await unitPage(auth, {
    q, sort, after, limit: query.limit ?? UNIT_PAGE_DEFAULT,
    namesOf: (item) => [...namesOf(item.departmentIds, names.departments), ...(item.departments ?? []), ...namesOf(item.tagIds, names.tags)],
  });
  return { units: page.units.map(listed), nextCursor: page.next ? encodeCursor(sort, q, page.next) : null };
});
