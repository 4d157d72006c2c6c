/**
 * The units a caller may see, enforced here in the data layer (docs/architecture.md rule 1): the account
 * comes from the verified token, an ordinary user reaches only the units granted to them, and a unit
 * of another account or one not granted is answered exactly like one that does not exist.
 */
import type { AuthContext } from '../platform/auth-context';
import { NotFoundError } from '../platform/errors';
import { getUnitItem, getUnitItemsByImei, lastAccountImei, listAccountUnits, queryAccountUnitsPage } from '../domain/unit/reads';
import { MAP_UNIT, type MapUnitItem, type UnitItem } from '../domain/unit/schema';

type Caller = Pick<AuthContext, 'accountId' | 'unitImeis'>;

function mayUse<U extends Pick<UnitItem, 'accountId' | 'imei'>>(caller: Caller, unit: U | null): unit is U {
  if (!unit || unit.accountId !== caller.accountId) return false;
  return caller.unitImeis === undefined || caller.unitImeis.includes(unit.imei);
}

/** Every unit of the caller's account it may see, by IMEI. */
export async function listUnits(caller: Caller): Promise<UnitItem[]> {
  return (await listAccountUnits(caller.accountId)).filter((unit) => mayUse(caller, unit));
}

/**
 * A page of the units the caller may see, in IMEI order: at most `limit` after the IMEI `after`
 * (and up to `until`, inclusive, when given: a segment of the map's view), and the IMEI the next
 * page starts after (null on the last page).
 * An admin's are read with Query pages of the account; an ordinary user's are the granted IMEIs
 * after `after`, read by key (a user granted ten units of fifty thousand reads ten items). Only
 * what the map shows is read of each item (`MAP_UNIT`).
 */
export async function listUnitsPage(caller: Caller, after: string | undefined, limit: number, until?: string): Promise<{ items: MapUnitItem[]; last: string | null }> {
  if (caller.unitImeis === undefined) {
    const { items, more } = await queryAccountUnitsPage(caller.accountId, after, limit, until, MAP_UNIT);
    return { items, last: more ? (items.at(-1)?.imei ?? null) : null };
  }
  const granted = [...new Set(caller.unitImeis)].filter((imei) => (after === undefined || imei > after) && (until === undefined || imei <= until)).sort();
  const chosen = granted.slice(0, limit);
  // A granted IMEI whose unit is gone or moved to another account is skipped, not answered.
  const items = (await getUnitItemsByImei(chosen, MAP_UNIT)).filter((unit) => mayUse(caller, unit));
  return { items, last: granted.length > limit ? (chosen.at(-1) ?? null) : null };
}

/**
 * The greatest IMEI among the units the caller may see (an ordinary user's: among the granted ones,
 * whether or not each still exists), or null without any: where the map's segments end.
 */
export async function lastUnitImei(caller: Caller): Promise<string | null> {
  if (caller.unitImeis === undefined) return lastAccountImei(caller.accountId);
  return caller.unitImeis.reduce<string | null>((max, imei) => (max === null || imei > max ? imei : max), null);
}

/** One unit the caller may see; anything else is NotFound, so existence is never revealed. */
export async function getUnit(caller: Caller, imei: string): Promise<UnitItem> {
  // Checked before the read: a not-granted IMEI costs no database call.
  if (caller.unitImeis !== undefined && !caller.unitImeis.includes(imei)) throw new NotFoundError();
  const unit = await getUnitItem(imei);
  if (!mayUse(caller, unit)) throw new NotFoundError();
  return unit;
}
