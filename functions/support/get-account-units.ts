import { routes } from '../../shared/routes';
import type { SupportUnit } from '../../shared/schemas/support';
import { UNIT_LIST_WHOLE_MAX, UNIT_PAGE_DEFAULT } from '../../shared/schemas/units';
import { httpHandler } from '../platform/http';
import { ValidationError } from '../platform/errors';
import { getUnitItemsByImei } from '../domain/unit/reads';
import type { UnitItem } from '../domain/unit/schema';
import { organisationNames } from '../organisation/organisation-items';
import { decodeCursor, encodeCursor, normaliseQuery, unitPage, wholeList } from '../units/unit-pages';
import { getSupportAccount, toSupportAccount } from './account-search';
import { logSupportAction } from './support-log';

const toSupportUnit = (u: UnitItem): SupportUnit => ({
  imei: u.imei,
  name: u.name,
  registrationNumber: u.registrationNumber ?? null,
  vehicleType: u.vehicleType,
  lockedByName: u.lockedBy === undefined ? null : (u.lockedByName ?? ''),
  lockedAt: u.lockedBy === undefined ? null : (u.lockedAt ?? null),
  subscriptionType: u.subscriptionType ?? null,
  reportFrequencyChange: u.reportFrequencyChange ?? 'allowed',
});

/**
 * An account's units for the support panel, as the units list pages them (functions/units/unit-pages.ts):
 * without `q`, `limit` or `cursor` every unit of an account of at most UNIT_LIST_WHOLE_MAX (an
 * answer of every unit of a larger fleet would pass Lambda's 6 MB), otherwise a page by name. The
 * indexes keep neither the lock time nor support's settings, so the units listed are read by key.
 */
export const handler = httpHandler(routes.getSupportAccountUnits, async ({ auth, params, query, ports }) => {
  // Read consistently: the panel shows what support just changed.
  const account = await getSupportAccount(params.accountId, { consistent: true });
  const owner = { accountId: account.accountId, unitImeis: undefined };
  const paged = query.q !== undefined || query.limit !== undefined || query.cursor !== undefined;
  let listed: UnitItem[];
  let nextCursor: string | null = null;
  if (!paged) {
    const whole = await wholeList(owner, UNIT_LIST_WHOLE_MAX);
    if (!whole) throw new ValidationError({ limit: ['UnitListTooLarge'] }, 'UnitListTooLarge');
    listed = whole;
  } else {
    const q = normaliseQuery(query.q);
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor, 'name.asc', q);
    const names = q ? await organisationNames(account.accountId) : null;
    const namesOf = (ids: readonly string[] | undefined, byId: Map<string, string> | undefined) => (ids ?? []).flatMap((id) => byId?.get(id) ?? []);
    const page = await unitPage(owner, {
      q,
      sort: 'name.asc',
      after,
      limit: query.limit ?? UNIT_PAGE_DEFAULT,
      namesOf: (item) => [...namesOf(item.departmentIds, names?.departments), ...(item.departments ?? []), ...namesOf(item.tagIds, names?.tags)],
    });
    listed = page.units;
    nextCursor = page.next ? encodeCursor('name.asc', q, page.next) : null;
  }
  // In the order listed, leaving out a unit deleted or moved to another account in between.
  const current = new Map((await getUnitItemsByImei(listed.map((u) => u.imei))).filter((u) => u.accountId === account.accountId).map((u) => [u.imei, u]));
  const units = listed.flatMap((u) => {
    const unit = current.get(u.imei);
    return unit ? [toSupportUnit(unit)] : [];
  });
  if (!paged) units.sort((a, b) => a.name.localeCompare(b.name, auth.lang) || a.imei.localeCompare(b.imei));
  // Opening the account is logged; its further pages and the searches within it are not.
  if (query.cursor === undefined && normaliseQuery(query.q) === '') await logSupportAction(auth, { action: 'viewAccount', account, details: `${units.length} units${nextCursor ? ' (first page)' : ''}` }, ports.clock.now());
  return {
    account: toSupportAccount(account),
    settings: { basicOnly: account.features?.basicOnly === true, smsCredits: typeof account.smsCredits === 'number' ? account.smsCredits : 0 },
    units,
    nextCursor,
  };
});
