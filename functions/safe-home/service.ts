/**
 * Safe return home for the account's admins (docs/decisions/0024-safe-return-home.md): the list,
 * the toggle, the home and the schedule. A change reads the unit (another account's is 404), then
 * the item, applies itself and writes the whole item conditional on what it read; a lost race
 * reads again (a few times, then 409 SafeHomeChanged). Turning on needs a home and a schedule
 * (SafeHomeEnableMsg); the next check is worked out from the schedule on every write.
 */
import type { z } from 'zod';
import type { safeHomeGeofenceRequestSchema, safeHomeScheduleRequestSchema, SafeHomeItem } from '../../shared/schemas/safe-home';
import { safeHomeMessageKeys as keys } from '../../shared/schemas/safe-home';
import type { AuthContext } from '../platform/auth-context';
import { ConflictError, ValidationError } from '../platform/errors';
import type { Ports } from '../platform/ports';
import type { UnitItem } from '../domain/unit/schema';
import { getUnit, listUnits } from '../tracking/unit-repository';
import { emptyRecord, listAccountSafeHomes, readSafeHome, writeSafeHome, type SafeHomeRecord } from './repository';
import { nextCheckAfter } from './schedule';

type Caller = Pick<AuthContext, 'accountId' | 'unitImeis' | 'lang'>;
const WRITE_TRIES = 5;

/** Whether the item has what turning on needs: a home and a schedule. */
export const isComplete = (r: SafeHomeRecord): boolean =>
  r.address !== null && r.centerLat !== null && r.centerLng !== null && r.schedule.length > 0 && r.frequency !== null && r.startDate !== null && r.timeZone !== null;

/** The next check of an item that is on, after `nowMs`; null when it is off or incomplete. */
export function nextDueOf(r: SafeHomeRecord, nowMs: number): number | null {
  if (!r.status || !isComplete(r)) return null;
  return nextCheckAfter({ schedule: r.schedule, frequency: r.frequency!, startDate: r.startDate!, timeZone: r.timeZone! }, nowMs);
}

export function toItem(unit: Pick<UnitItem, 'imei' | 'name' | 'registrationNumber'>, r: SafeHomeRecord | null): SafeHomeItem {
  const record = r ?? emptyRecord(unit.imei, '');
  return {
    imei: unit.imei,
    name: unit.name,
    RegistrationNumber: unit.registrationNumber ?? null,
    status: record.status ? 1 : 0,
    address: record.address,
    radius: record.radius,
    centerLat: record.centerLat,
    centerLng: record.centerLng,
    schedule: [...record.schedule].sort((a, b) => ((a.day + 6) % 7) - ((b.day + 6) % 7)),
    frequency: record.frequency,
    start_date: record.startDate,
    time_zone: record.timeZone,
    nextCheck: record.status && record.nextDueAt !== null ? new Date(record.nextDueAt).toISOString() : null,
  };
}

export async function listSafeHomes(caller: Caller): Promise<SafeHomeItem[]> {
  const [units, records] = await Promise.all([listUnits(caller), listAccountSafeHomes(caller.accountId)]);
  const byImei = new Map(records.map((r) => [r.imei, r]));
  return units.map((unit) => toItem(unit, byImei.get(unit.imei) ?? null)).sort((a, b) => a.name.localeCompare(b.name) || a.imei.localeCompare(b.imei));
}

async function change(caller: Caller, imei: string, now: Date, apply: (current: SafeHomeRecord) => SafeHomeRecord): Promise<SafeHomeItem> {
  const unit = await getUnit(caller, imei);
  for (let attempt = 0; attempt < WRITE_TRIES; attempt++) {
    const stored = await readSafeHome(imei);
    // An item of a previous owner of the IMEI is not this account's: it starts empty (and is replaced).
    const current = stored && stored.accountId === unit.accountId ? stored : emptyRecord(imei, unit.accountId);
    const applied = apply(current);
    const next: SafeHomeRecord = { ...applied, imei, accountId: unit.accountId, rev: (stored?.rev ?? 0) + 1, updatedAt: now.toISOString() };
    next.nextDueAt = nextDueOf(next, now.getTime());
    if (await writeSafeHome(next, stored ? stored.rev : null)) return toItem(unit, next);
  }
  throw new ConflictError(keys.SafeHomeChanged);
}

export function setStatus(caller: Caller, imei: string, on: boolean, now: Date): Promise<SafeHomeItem> {
  return change(caller, imei, now, (current) => {
    if (on && !isComplete(current)) throw new ValidationError({ status: [keys.SafeHomeEnableMsg] }, keys.SafeHomeEnableMsg);
    return { ...current, status: on };
  });
}

export async function setHome(caller: Caller, imei: string, home: z.output<typeof safeHomeGeofenceRequestSchema>, ports: Pick<Ports, 'geocoder' | 'clock'>): Promise<SafeHomeItem> {
  // The unit first: another account's answers 404 before anything is looked up.
  await getUnit(caller, imei);
  const found = await ports.geocoder.search(home.address, caller.lang, { lat: home.centerLat, lon: home.centerLng });
  if (found.length === 0) throw new ValidationError({ address: [keys.SafeReturnHomeAddrEmpty] }, keys.SafeReturnHomeAddrEmpty);
  return change(caller, imei, ports.clock.now(), (current) => ({
    ...current,
    address: home.address,
    radius: home.radius,
    centerLat: home.centerLat,
    centerLng: home.centerLng,
  }));
}

export function setSchedule(caller: Caller, imei: string, body: z.output<typeof safeHomeScheduleRequestSchema>, now: Date): Promise<SafeHomeItem> {
  return change(caller, imei, now, (current) => ({
    ...current,
    schedule: [...body.schedule].sort((a, b) => a.day - b.day),
    frequency: body.frequency,
    startDate: body.start_date,
    timeZone: body.time_zone,
  }));
}
