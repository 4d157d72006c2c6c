/**
 * Reporting a vehicle's month to Autoplan (docs/decisions/0039-autoplan.md), for the report route
 * and the monthly job alike: the figures come from the month's rollup (functions/trips/unit-day-reads.ts)
 * and the unit's odometer entries, never from trips or positions; the month is claimed before
 * Autoplan is called and given back when Autoplan does not take the report, so it is reported once
 * and a failed report can be sent again. Autoplan's answers become the spec's message keys.
 */
import { AUTOPLAN_DEFAULT_ZONE, autoplanMessageKeys as keys, type AutoplanFigures, type AutoplanReport } from '../../shared/schemas/autoplan';
import { isValidTimeZone } from '../../shared/schemas/common';
import { getAccountFields } from '../domain/account/reads';
import type { UnitItem } from '../domain/unit/schema';
import { DetailedError, ValidationError, type DomainError } from '../platform/errors';
import { logger } from '../platform/logger';
import { AutoplanNoResponseError, AutoplanNotConfiguredError, AutoplanRejectedError, type Ports } from '../platform/ports';
import { resolvedOdometerEntries } from '../trips/odometer';
import { readUnitMonthItem, unitDayOdometers } from '../trips/unit-day-reads';
import { claimMonth, completeMonth, releaseClaim } from './autoplan-repository';

/** The account's zone: the one its alarm messages use (absent or unknown: Europe/Stockholm). */
export async function accountZone(accountId: string): Promise<string> {
  const account = await getAccountFields(accountId, ['alertTimeZone']);
  const zone = account?.alertTimeZone;
  return zone && isValidTimeZone(zone) ? zone : AUTOPLAN_DEFAULT_ZONE;
}

const km = (metres: number) => Math.round(metres) / 1000;

/** The month's figures of a unit: its month rollup with the trip log's odometers; a month without trips is all zero. */
export async function monthFigures(unit: UnitItem, month: string): Promise<Omit<AutoplanFigures, 'registrationNumber'>> {
  const [rollup, entries] = await Promise.all([readUnitMonthItem(unit.accountId, unit.imei, month), resolvedOdometerEntries(unit)]);
  if (!rollup) return { odometerStart: null, odometerEnd: null, trips: 0, distanceKm: 0, businessKm: 0, privateKm: 0, otherKm: 0 };
  const odometers = unitDayOdometers(rollup, entries);
  return {
    odometerStart: odometers.start,
    odometerEnd: odometers.stop,
    trips: rollup.trips,
    distanceKm: km(rollup.distanceM),
    businessKm: km(rollup.byType.business.distanceM),
    privateKm: km(rollup.byType.private.distanceM),
    otherKm: km(rollup.byType.other.distanceM),
  };
}

/** The domain error (message key and status) an adapter failure is answered with; null for one that is not Autoplan's. */
function autoplanError(error: unknown): DomainError | null {
  if (error instanceof AutoplanNoResponseError) return new DetailedError(504, keys.AutoplanNoResponse, keys.AutoplanNoResponse);
  if (error instanceof AutoplanRejectedError) return new DetailedError(502, keys.AutoplanRejected, keys.AutoplanRejected);
  if (error instanceof AutoplanNotConfiguredError) return new DetailedError(409, keys.AutoplanNotConfigured, keys.AutoplanNotConfigured);
  return null;
}

/**
 * Reports `month` of `unit` as `by` (a user id, or 'automatic' for the job). The caller has checked
 * that the unit may be reported by whoever asks and that the month is open (autoplanRefusal).
 */
export async function reportMonth(unit: UnitItem, month: string, by: string, ports: Pick<Ports, 'autoplan' | 'clock'>): Promise<AutoplanReport> {
  const registrationNumber = unit.registrationNumber?.trim();
  if (!registrationNumber) throw new ValidationError({ imei: [keys.AutoplanRegistrationNumberMissing] }, keys.AutoplanRegistrationNumberMissing);
  const held = await claimMonth(unit.accountId, unit.imei, month, by, ports.clock.now().getTime());
  if (!held) throw new ValidationError({ month: [keys.AutoplanMonthAlreadyReported] }, keys.AutoplanMonthAlreadyReported);
  let taken = false;
  try {
    const figures = await monthFigures(unit, month);
    const outcome = await ports.autoplan.report({
      accountId: unit.accountId,
      imei: unit.imei,
      month,
      registrationNumber,
      ...figures,
      idempotencyKey: `${unit.accountId}:${unit.imei}:${month}`,
    });
    if (outcome.status === 'noLicencePlateMatch') throw new ValidationError({ imei: [keys.AutoplanNoLicencePlateMatch] }, keys.AutoplanNoLicencePlateMatch);
    if (outcome.status === 'serviceCar') throw new ValidationError({ imei: [keys.AutoplanServiceCarNoReport] }, keys.AutoplanServiceCarNoReport);
    taken = true;
    const report: AutoplanReport = { imei: unit.imei, month, registrationNumber, ...figures, reportedAt: ports.clock.now().toISOString(), reference: outcome.reference };
    // Taken by Autoplan: the claim stays even if storing the receipt fails (a stale claim is retried with the same idempotency key).
    await completeMonth(held, report);
    return report;
  } catch (error) {
    if (!taken) await releaseClaim(held);
    const mapped = autoplanError(error);
    if (mapped) {
      logger.warn('Autoplan did not take a report', { imei: unit.imei, month, error: (error as Error).message });
      throw mapped;
    }
    throw error;
  }
}
