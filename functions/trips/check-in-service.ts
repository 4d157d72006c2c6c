/**
 * Driver check-in (spec sections 4 and 5): checking in replaces the unit's driver from a time on
 * (now by default); the trips from then until the next check-in get the driver, except attested
 * trips and trips whose driver a user set by hand. The check-in in force now also becomes the
 * unit's `driver` on the map and in the units list.
 *
 * By QR code the caller checks themself in on the code's unit. A user without access to that unit
 * may do so only where the account allows it (`allowQrCheckInWithoutAccess`); a unit of another
 * account is not found, as everywhere.
 */
import type { DriverCheckIn, DriverCheckInRequest } from '../../shared/schemas/trips';
import { tripMessageKeys as keys } from '../../shared/schemas/trips-messages';
import type { AuthContext } from '../platform/auth-context';
import { ForbiddenError, NotFoundError, ValidationError } from '../platform/errors';
import { getUnitItem, registeredAtOf, setUnitDriver, type UnitItem } from '../platform/unit-item';
import { qrCheckInWithoutAccessAllowed, tripAccountSettings } from './account-settings';
import { unitFor } from './access';
import { imeiOfCheckInCode } from './check-in-code';
import { checkInAfter, putCheckIn } from './check-in-repository';
import { isoInZone, parseDateTime } from './local-time';
import { accountUser, fullName } from './people';
import { setCheckedInDriver, unitTrips } from './trip-repository';

type Caller = Pick<AuthContext, 'userId' | 'accountId' | 'unitImeis'>;

/** A clock a little ahead of the server's is not the future. */
const CLOCK_SKEW_MS = 60_000;

async function unitOfCode(caller: Caller, qr: string, imei: string | undefined): Promise<UnitItem> {
  const coded = await imeiOfCheckInCode(qr);
  if (!coded || (imei !== undefined && imei !== coded)) throw new ValidationError({ qr: [keys.InvalidQrCode] });
  const unit = await getUnitItem(coded);
  if (!unit || unit.accountId !== caller.accountId) throw new NotFoundError();
  const hasAccess = caller.unitImeis === undefined || caller.unitImeis.includes(unit.imei);
  if (!hasAccess && !qrCheckInWithoutAccessAllowed(await tripAccountSettings(caller.accountId))) throw new ForbiddenError(keys.QrCheckInNotAllowed);
  return unit;
}

export async function checkInDriver(caller: Caller, request: DriverCheckInRequest, zone: string, now: number): Promise<DriverCheckIn> {
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
  let changed = 0;
  for (const trip of trips) if (await setCheckedInDriver(trip, driverId)) changed++;
  const name = fullName(driver);
  if (!next) await setUnitDriver(unit.imei, unit.accountId, name);
  return {
    imei: unit.imei,
    driverId,
    driverName: name,
    from: isoInZone(fromTs, zone),
    until: next ? isoInZone(next.fromTs, zone) : null,
    tripsChanged: changed,
  };
}
