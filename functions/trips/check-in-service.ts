/**
 * Driver check-in (spec sections 4 and 5): checking in replaces the unit's driver from a time on
 * (now by default); the trips from then until the next check-in get the driver, except attested
 * trips and trips whose driver a user set by hand. The check-in in force now also becomes the
 * unit's `driver` on the map and in the units list.
 *
 * By QR code the caller checks themself in on the code's unit. A user without access to that unit
 * may do so only where the account allows it (`allowQrCheckInWithoutAccess`); a unit of another
 * account is not found, as everywhere. The check-in page names the code's unit first
 * (`checkInUnit`), under the same rules.
 */
import type { CheckInUnit, DriverCheckIn, DriverCheckInRequest } from '../../shared/schemas/trips';
import { tripMessageKeys as keys } from '../../shared/schemas/trips-messages';
import type { AuthContext } from '../platform/auth-context';
import { ForbiddenError, NotFoundError, ValidationError } from '../platform/errors';
import { getUnitItem } from '../domain/unit/reads';
import { registeredAtOf, type UnitItem } from '../domain/unit/schema';
import { setUnitDriver } from '../domain/unit/writes';
import { qrCheckInWithoutAccessAllowed, tripAccountSettings } from './account-settings';
import { unitFor } from './access';
import { imeiOfCheckInCode } from './check-in-code';
import { checkInAfter, putCheckIn } from './check-in-repository';
import { isoInZone, parseDateTime } from '../../shared/local-time';
import { accountUser, fullName } from './people';
import { setCheckedInDriver, unitTrips } from './trip-repository';
import { tripsChanged } from './unit-days';
import type { Ports } from '../platform/ports';

type Caller = Pick<AuthContext, 'userId' | 'accountId' | 'unitImeis' | 'isSupport'>;

/** A clock a little ahead of the server's is not the future. */
const CLOCK_SKEW_MS = 60_000;

/**
 * The unit of a genuine code's IMEI, for a caller who may check in on it by QR: another account's
 * unit (or none) is NotFound with `notFoundKey`; without access to it, 403 QrCheckInNotAllowed
 * unless the account allows it.
 */
async function codedUnit(caller: Caller, imei: string, notFoundKey?: string): Promise<UnitItem> {
  const unit = await getUnitItem(imei);
  if (!unit || unit.accountId !== caller.accountId) throw new NotFoundError(notFoundKey);
  const hasAccess = caller.unitImeis === undefined || caller.unitImeis.includes(unit.imei);
  if (!hasAccess && !qrCheckInWithoutAccessAllowed(await tripAccountSettings(caller.accountId))) throw new ForbiddenError(keys.QrCheckInNotAllowed);
  return unit;
}

async function unitOfCode(caller: Caller, qr: string, imei: string | undefined): Promise<UnitItem> {
  const coded = await imeiOfCheckInCode(qr);
  if (!coded || (imei !== undefined && imei !== coded)) throw new ValidationError({ qr: [keys.InvalidQrCode] });
  return codedUnit(caller, coded);
}

/**
 * The unit a scanned code belongs to, for the check-in page to name before the driver checks in:
 * whoever may check in by the code may see it. A code that is none and another account's unit are
 * both 404 InvalidQrCode, so the answer tells nothing of other accounts.
 */
export async function checkInUnit(caller: Caller, code: string): Promise<CheckInUnit> {
  const coded = await imeiOfCheckInCode(code);
  if (!coded) throw new NotFoundError(keys.InvalidQrCode);
  const unit = await codedUnit(caller, coded, keys.InvalidQrCode);
  return { imei: unit.imei, name: unit.name, registrationNumber: unit.registrationNumber ?? null };
}

export async function checkInDriver(caller: Caller, request: DriverCheckInRequest, zone: string, now: number, ports: Pick<Ports, 'queues'>): Promise<DriverCheckIn> {
  let fromTs = request.from === undefined ? now : parseDateTime(request.from, zone);
  if (Number.isNaN(fromTs)) throw new ValidationError({ from: [keys.InvalidDateTime] });
  if (fromTs > now + CLOCK_SKEW_MS) throw new ValidationError({ from: [keys.CheckInFuture] });

  const byQr = request.qr !== undefined;
  const unit = byQr ? await unitOfCode(caller, request.qr as string, request.imei) : await unitFor(caller, request.imei as string);
  const driverId = byQr ? caller.userId : (request.driverId as string).trim();
  const driver = await accountUser(caller.accountId, driverId);
  if (!driver) throw new ValidationError({ driverId: [keys.InvalidDriver] });
  // Nothing before the unit's registration is its owner's.
  fromTs = Math.max(fromTs, registeredAtOf(unit));

  await putCheckIn({ imei: unit.imei, fromTs, accountId: unit.accountId, driverId, by: caller.userId, via: byQr ? 'qr' : 'manual', createdAt: now });
  const next = await checkInAfter(unit, fromTs);
  const trips = await unitTrips(unit, fromTs, next ? next.fromTs - 1 : Number.MAX_SAFE_INTEGER, { consistent: true });
  const changed: number[] = [];
  for (const trip of trips) if (await setCheckedInDriver(trip, driverId, caller.userId, now)) changed.push(trip.startTs);
  await tripsChanged(ports, unit.accountId, unit.imei, changed);
  const name = fullName(driver);
  if (!next) await setUnitDriver(unit.imei, unit.accountId, name);
  return {
    imei: unit.imei,
    driverId,
    driverName: name,
    from: isoInZone(fromTs, zone),
    until: next ? isoInZone(next.fromTs, zone) : null,
    tripsChanged: changed.length,
  };
}
