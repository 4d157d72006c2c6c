/**
 * Attestation of the trip log (spec sections 4 and 6): a user attests a unit's trips of a period
 * and they can no longer be edited, merged or split; an admin approves the attestation, unlocks the
 * period (the trips are editable again and the record stays, `unlocked`, with who and when), or
 * removes it (the trips are unlocked and the record deleted), and reminds users by e-mail.
 *
 * The record is written before the trips are locked and each trip is locked with a conditional
 * write, so a trip belongs to at most one attestation and an edit racing the lock either lands
 * before it or is refused with 423. Unlocking runs again on every unlock or remove, so a failure
 * half-way is repaired by repeating the request.
 */
import { addMonthsToDay, type AttestRequest, type AttestationStatus } from '../../shared/schemas/trips';
import { tripMessageKeys as keys } from '../../shared/schemas/trips-messages';
import type { AuthContext } from '../platform/auth-context';
import { NotFoundError, ValidationError } from '../platform/errors';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import type { UnitItem } from '../domain/unit/schema';
import {
  accountAttestations,
  changeAttestation,
  claimReminder,
  deleteAttestationItem,
  getAttestation,
  newAttestationId,
  putAttestation,
  releaseReminder,
  remindersOf,
  userKeyOf,
  type AttestationItem,
} from './attestation-repository';
import { localDayOf, localDaysRange, monthDays } from '../../shared/local-time';
import { accountUser, accountUsers, fullName } from './people';
import { renderReminderEmail } from './reminder-email';
import { lockTrip, unitTrips, unlockTrip } from './trip-repository';

type Caller = Pick<AuthContext, 'userId' | 'accountId'>;

export async function attestPeriod(caller: Caller, unit: UnitItem, request: AttestRequest, zone: string, now: number): Promise<AttestationItem> {
  // Attesting past today would lock trips not yet driven (the web offers the period up to today).
  if (request.to > localDayOf(now, zone)) throw new ValidationError({ to: [keys.AttestPeriodNotEnded] }, keys.AttestPeriodNotEnded);
  const { fromMs, toMs } = localDaysRange(request.from, request.to, zone);
  const open = (await unitTrips(unit, fromMs, toMs - 1, { consistent: true })).filter((t) => t.attestationId === undefined);
  const nothing = () => new ValidationError({ period: [keys.NothingToAttest] }, keys.NothingToAttest);
  if (!open.length) throw nothing();

  const item: AttestationItem = {
    accountId: caller.accountId,
    id: newAttestationId(request.from, unit.imei),
    imei: unit.imei,
    userId: caller.userId,
    userKey: userKeyOf(caller.accountId, caller.userId),
    fromDay: request.from,
    toDay: request.to,
    timeZone: zone,
    fromTs: fromMs,
    toTs: toMs,
    ...(request.note ? { note: request.note } : {}),
    status: 'attested',
    tripCount: 0,
    attestedAt: now,
  };
  await putAttestation(item);
  let locked = 0;
  for (const trip of open) if (await lockTrip(trip, item.id)) locked++;
  if (!locked) {
    await deleteAttestationItem(item.accountId, item.id);
    throw nothing();
  }
  return (await changeAttestation(item.accountId, item.id, { tripCount: locked }, ['attested'])) ?? { ...item, tripCount: locked };
}

async function attestationOf(accountId: string, id: string): Promise<AttestationItem> {
  const item = await getAttestation(accountId, id);
  if (!item) throw new NotFoundError(keys.AttestationNotFound);
  return item;
}

/** Unlocks the trips of the attestation in its period (only those it locked). */
async function unlockTripsOf(item: AttestationItem): Promise<number> {
  const unit = { imei: item.imei, accountId: item.accountId, createdAt: undefined };
  const trips = await unitTrips(unit, item.fromTs, item.toTs - 1, { consistent: true });
  let unlocked = 0;
  for (const trip of trips) if (trip.attestationId === item.id && (await unlockTrip(trip, item.id))) unlocked++;
  return unlocked;
}

export async function approveAttestation(caller: Caller, id: string, now: number): Promise<AttestationItem> {
  const item = await attestationOf(caller.accountId, id);
  if (item.status === 'approved') return item;
  if (item.status === 'unlocked') throw new ValidationError({ id: [keys.AttestationIsUnlocked] }, keys.AttestationIsUnlocked);
  const approved = await changeAttestation(caller.accountId, id, { status: 'approved', approvedAt: now, approvedBy: caller.userId }, ['attested']);
  // Lost to a concurrent change: answer what it is now.
  return approved ?? attestationOf(caller.accountId, id);
}

export async function unlockAttestation(caller: Caller, id: string, now: number): Promise<AttestationItem> {
  const item = await attestationOf(caller.accountId, id);
  const unlocked = item.status === 'unlocked' ? item : await changeAttestation(caller.accountId, id, { status: 'unlocked', unlockedAt: now, unlockedBy: caller.userId }, ['attested', 'approved']);
  const count = await unlockTripsOf(unlocked ?? item);
  logger.info('attestation unlocked', { accountId: caller.accountId, id, trips: count, by: caller.userId });
  return unlocked ?? attestationOf(caller.accountId, id);
}

export async function removeAttestation(caller: Caller, id: string): Promise<void> {
  const item = await attestationOf(caller.accountId, id);
  await unlockTripsOf(item);
  await deleteAttestationItem(caller.accountId, id);
  logger.info('attestation removed', { accountId: caller.accountId, id, by: caller.userId, imei: item.imei, from: item.fromDay, to: item.toDay });
}

/** Per user of the account (or the one asked for): the attestations overlapping the month and where they stand. */
export async function attestationStatus(accountId: string, month: string, userId: string | undefined): Promise<{
  users: { user: { userId: string; name: string }; status: AttestationStatus['users'][number]['status']; attestations: AttestationItem[]; remindedAt: number | null }[];
  names: Map<string, string>;
}> {
  const { first, last } = monthDays(month);
  const [people, attestations, reminders] = await Promise.all([
    userId === undefined ? accountUsers(accountId) : accountUser(accountId, userId).then((u) => (u ? [u] : [])),
    accountAttestations(accountId, addMonthsToDay(first, -12), first, last, userId),
    remindersOf(accountId, month, userId),
  ]);
  if (userId !== undefined && !people.length) throw new NotFoundError();
  const names = new Map(people.map((p) => [p.userId, fullName(p)]));
  const users = people
    .map((person) => {
      const own = attestations.filter((a) => a.userId === person.userId).sort((a, b) => a.id.localeCompare(b.id));
      const inForce = own.filter((a) => a.status !== 'unlocked');
      const status = !inForce.length ? 'notAttested' : inForce.every((a) => a.status === 'approved') ? 'approved' : 'attested';
      const reminded = reminders.filter((r) => r.userId === person.userId).map((r) => r.sentAt);
      return { user: { userId: person.userId, name: fullName(person) }, status, attestations: own, remindedAt: reminded.length ? Math.max(...reminded) : null } as const;
    })
    .sort((a, b) => a.user.name.localeCompare(b.user.name) || a.user.userId.localeCompare(b.user.userId));
  return { users, names };
}

/**
 * E-mails a user a reminder to attest a month, once per request: the claim (a conditional write)
 * lets one of any number of identical requests through, and a request retried with its
 * `requestId` sends nothing more. A failed send gives the claim back and fails the request.
 */
export async function remindToAttest(
  caller: Caller,
  request: { userId: string; month: string; requestId?: string | undefined },
  ports: Pick<Ports, 'mailer'>,
  now: number,
): Promise<{ sent: boolean; remindedAt: number }> {
  const user = await accountUser(caller.accountId, request.userId);
  if (!user) throw new NotFoundError();
  const requestId = request.requestId ?? `auto-${now}-${Math.random().toString(36).slice(2)}`;
  const claimed = await claimReminder({ accountId: caller.accountId, userId: user.userId, month: request.month, requestId, sentAt: now, sentBy: caller.userId });
  if (!claimed) {
    const [last] = await remindersOf(caller.accountId, request.month, user.userId);
    return { sent: false, remindedAt: last?.sentAt ?? now };
  }
  try {
    const mail = renderReminderEmail({ lang: user.lang, subsiteId: user.subsiteId, firstName: user.firstName, month: request.month });
    await ports.mailer.send({ to: user.email, ...mail });
  } catch (error) {
    await releaseReminder(caller.accountId, request.month, user.userId, requestId);
    throw error;
  }
  return { sent: true, remindedAt: now };
}
