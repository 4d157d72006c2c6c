/**
 * What one save or delete of a geofence writes on units (pure, so the rules are tested without a
 * database): the zone copy put on every unit it is assigned to (added or kept) and removed from
 * every unit it no longer is, checked against the rules of docs/api.md. The caller reads the units
 * (strongly consistent) and writes the geofence and these updates in one transaction, whose
 * conditions hold the limit against concurrent saves; a lost race reads again and plans again.
 */
import { GEOFENCE_MAX_UNITS, geofenceMessageKeys as keys } from '../../shared/schemas/geofences';
import type { FieldErrors } from '../platform/errors';
import type { UnitZonesSeen } from '../domain/unit/copies';

export interface ZonePlanInput {
  geofenceId: string;
  accountId: string;
  /** The units of the geofence before the save ([] for a new one). */
  before: readonly string[];
  /** The units after it ([] for a delete). */
  after: readonly string[];
  /** The units as read, by IMEI (missing: no such unit, or not readable). */
  units: ReadonlyMap<string, UnitZonesSeen>;
  /** Units an ordinary user was granted; undefined for an admin. */
  granted: readonly string[] | undefined;
  /** Zones per unit. */
  max: number;
}

export interface ZonePlan {
  put: UnitZonesSeen[];
  remove: UnitZonesSeen[];
}

/** Whether a unit is the caller's to use: the account's, and granted to an ordinary user. */
export function mayAssign(unit: UnitZonesSeen | undefined, accountId: string, granted: readonly string[] | undefined): unit is UnitZonesSeen {
  return unit !== undefined && unit.accountId === accountId && (granted === undefined || granted.includes(unit.imei));
}

/**
 * An ordinary user sees a geofence only when every one of its units that is still the account's is
 * granted to them (its other units, if any, moved to another account and are no longer its).
 */
export function mayManage(imeis: readonly string[], units: ReadonlyMap<string, { accountId: string }>, accountId: string, granted: readonly string[] | undefined): boolean {
  if (granted === undefined) return true;
  return imeis.every((imei) => units.get(imei)?.accountId !== accountId || granted.includes(imei));
}

export function planZoneWrites(input: ZonePlanInput): { plan: ZonePlan } | { errors: FieldErrors } {
  const { geofenceId, accountId, granted, max } = input;
  const put: UnitZonesSeen[] = [];
  const errors: string[] = [];
  for (const imei of input.after) {
    const unit = input.units.get(imei);
    if (!mayAssign(unit, accountId, granted)) {
      if (!errors.includes(keys.GeofenceUnitNotFound)) errors.push(keys.GeofenceUnitNotFound);
      continue;
    }
    if (!unit.zoneIds.includes(geofenceId) && unit.zoneIds.length >= max) {
      if (!errors.includes(keys.GeofenceLimitReached)) errors.push(keys.GeofenceLimitReached);
      continue;
    }
    put.push(unit);
  }
  const keep = new Set(input.after);
  const remove: UnitZonesSeen[] = [];
  for (const imei of new Set(input.before)) {
    if (keep.has(imei)) continue;
    const unit = input.units.get(imei);
    // A unit that moved to another account is no longer ours to write; one without a zones map has nothing to remove.
    if (unit && unit.accountId === accountId && unit.zonesMap) remove.push(unit);
  }
  if (!errors.length && put.length + remove.length > GEOFENCE_MAX_UNITS) errors.push(keys.GeofenceTooManyUnits);
  if (errors.length) return { errors: { imeis: errors } };
  return { plan: { put, remove } };
}
