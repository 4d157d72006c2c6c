/**
 * Geofences as the routes use them (docs/api.md Geofences). Who may reach one: the caller's account
 * only (another account's id is NotFound, as one that does not exist); an ordinary user only those
 * whose units are all granted to them, and may assign only granted units. A save or delete reads
 * the geofence and its units strongly consistent, plans the zone copies (plan.ts) and writes it all
 * in one transaction; a transaction that lost to a concurrent write is planned again from a fresh
 * read, so the loser of a race for a unit's last zone gets 422 GeofenceLimitReached.
 */
import { randomUUID } from 'node:crypto';
import { MAX_GEOFENCES_PER_UNIT, geofenceMessageKeys as keys, type Geofence, type GeofenceInput } from '../../shared/schemas/geofences';
import type { AuthContext } from '../platform/auth-context';
import { lostTransactionRace } from '../platform/conditions';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors';
import { unitZonesSeenOf, type UnitZonesSeen } from '../domain/unit/copies';
import { getUnitItems, getUnitItemsByImei } from '../domain/unit/reads';
import type { UnitItem } from '../domain/unit/schema';
import { geofenceView, nextGeofenceItem, type GeofenceItem } from './geofence-item';
import { mayManage, planZoneWrites } from './plan';
import { deleteGeofence, getGeofenceItem, listGeofenceItems, writeGeofence } from './repository';

type Caller = Pick<AuthContext, 'accountId' | 'unitImeis' | 'userId'>;

/** Tries of a save that keeps losing to concurrent writes before it answers 409. */
const ATTEMPTS = 5;

const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));

/** Names of the units the caller may see, by IMEI. */
function visibleNames(caller: Pick<Caller, 'accountId' | 'unitImeis'>, units: Iterable<UnitItem>): Map<string, string> {
  const names = new Map<string, string>();
  for (const unit of units) {
    if (unit.accountId !== caller.accountId) continue;
    if (caller.unitImeis !== undefined && !caller.unitImeis.includes(unit.imei)) continue;
    names.set(unit.imei, unit.name);
  }
  return names;
}

async function readUnits(imeis: Iterable<string>): Promise<Map<string, UnitItem>> {
  const found = await getUnitItems([...new Set(imeis)]);
  const units = new Map<string, UnitItem>();
  for (const [imei, unit] of found) if (!(unit instanceof Error)) units.set(imei, unit);
  return units;
}

const seenOf = (units: ReadonlyMap<string, UnitItem>) => new Map<string, UnitZonesSeen>([...units].map(([imei, unit]) => [imei, unitZonesSeenOf(unit)]));

export async function listGeofences(caller: Caller): Promise<Geofence[]> {
  const items = await listGeofenceItems(caller.accountId);
  // Only the geofences' units, by key: not every unit of an account of tens of thousands.
  const units = await getUnitItemsByImei(items.flatMap((item) => item.imeis));
  const byImei = new Map(units.map((unit) => [unit.imei, unit]));
  const names = visibleNames(caller, units);
  return items
    .filter((item) => mayManage(item.imeis, byImei, caller.accountId, caller.unitImeis))
    .map((item) => geofenceView(item, names))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** The geofence and its units as read now, or NotFound for anything the caller may not reach. */
async function reachable(caller: Caller, id: string, extra: readonly string[] = []): Promise<{ item: GeofenceItem; units: Map<string, UnitItem> }> {
  const item = await getGeofenceItem(caller.accountId, id, true);
  if (!item) throw new NotFoundError();
  const units = await readUnits([...item.imeis, ...extra]);
  if (!mayManage(item.imeis, units, caller.accountId, caller.unitImeis)) throw new NotFoundError();
  return { item, units };
}

export async function getGeofence(caller: Caller, id: string): Promise<Geofence> {
  const { item, units } = await reachable(caller, id);
  return geofenceView(item, visibleNames(caller, units.values()));
}

/** Creates (id null) or replaces a geofence; answers it as saved. */
export async function saveGeofence(caller: Caller, id: string | null, input: GeofenceInput, timeZone: string, now: Date): Promise<Geofence> {
  const geofenceId = id ?? randomUUID();
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (attempt) await pause(attempt);
    let before: GeofenceItem | null = null;
    let units: Map<string, UnitItem>;
    if (id === null) {
      units = await readUnits(input.imeis);
    } else {
      ({ item: before, units } = await reachable(caller, id, input.imeis));
    }
    const planned = planZoneWrites({
      geofenceId,
      accountId: caller.accountId,
      before: before?.imeis ?? [],
      after: input.imeis,
      units: seenOf(units),
      granted: caller.unitImeis,
      max: MAX_GEOFENCES_PER_UNIT,
    });
    if ('errors' in planned) throw new ValidationError(planned.errors);
    const next = nextGeofenceItem(before, { accountId: caller.accountId, id: geofenceId, userId: caller.userId, timeZone, now }, input);
    try {
      await writeGeofence(before, next, planned.plan, MAX_GEOFENCES_PER_UNIT);
      return geofenceView(next, visibleNames(caller, units.values()));
    } catch (error) {
      if (!lostTransactionRace(error)) throw error;
    }
  }
  throw new ConflictError(keys.GeofenceNotSaved);
}

export async function removeGeofence(caller: Caller, id: string): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (attempt) await pause(attempt);
    const { item, units } = await reachable(caller, id);
    const planned = planZoneWrites({
      geofenceId: id,
      accountId: caller.accountId,
      before: item.imeis,
      after: [],
      units: seenOf(units),
      granted: undefined,
      max: MAX_GEOFENCES_PER_UNIT,
    });
    if ('errors' in planned) throw new ValidationError(planned.errors);
    try {
      await deleteGeofence(item, planned.plan);
      return;
    } catch (error) {
      if (!lostTransactionRace(error)) throw error;
    }
  }
  throw new ConflictError(keys.GeofenceNotDeleted);
}
