/**
 * Car booking (docs/architecture.md Car booking, docs/decisions/0023-car-booking.md): the week and
 * month schedules, the drivers of a vehicle, and saving and deleting bookings with the rules of spec
 * sections 5 and 6. The field rules are shared with the browser (bookingFieldErrors in
 * shared/schemas/car-schedule.ts); the overlap rule is held by the data layer (booking-repository.ts).
 */
import { randomUUID } from 'node:crypto';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import {
  UNBOOKABLE_SUBSCRIPTION,
  bookingFieldErrors,
  monthGrid,
  overlaps,
  refusedForThePast,
  splitBookingTime,
  weekOf,
  type Booking,
  type BookingDriver,
  type BookingFieldErrors,
  type BookingSave,
  type CarSchedule,
  type VehicleSchedule,
} from '../../shared/schemas/car-schedule';
import { carScheduleMessageKeys as keys } from '../../shared/schemas/car-schedule-messages';
import type { AuthContext } from '../platform/auth-context';
import { lostTransactionRace } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../platform/errors';
import { addDays, isoInZone, localDayOf, parseDateTime, startOfLocalDay } from '../../shared/local-time';
import { getUnit, listUnits } from '../tracking/unit-repository';
import { accountUser, accountUsers, fullName, type Person } from '../trips/people';
import type { UnitItem } from '../domain/unit/schema';
import {
  commitBooking,
  driverBookings,
  getBooking,
  oldestDriverBooking,
  oldestUnitBooking,
  readVersion,
  removeBooking,
  slotKey,
  unitBookings,
  type StoredBooking,
} from './booking-repository';
import { mapLimited } from '../platform/concurrency';

type Caller = Pick<AuthContext, 'userId' | 'accountId' | 'isAdmin' | 'unitImeis' | 'lang'>;

/** A save that keeps losing its race this often gives up with 409 BookingChanged. */
const MAX_ATTEMPTS = 40;

const bookable = (unit: UnitItem): boolean => unit.subscriptionType !== UNBOOKABLE_SUBSCRIPTION;

/** A vehicle the caller may book: one they may see (404 otherwise, rule 1) that is not 'Bas'. */
async function bookableUnit(caller: Caller, imei: string): Promise<UnitItem> {
  const unit = await getUnit(caller, imei);
  if (!bookable(unit)) throw new NotFoundError();
  return unit;
}

/** The vehicles' models (the object description in unit-details), read by key for the vehicles shown. */
async function modelsOf(units: readonly UnitItem[]): Promise<Map<string, string>> {
  const models = new Map<string, string>();
  const table = tableName('unitDetails');
  for (let i = 0; i < units.length; i += 100) {
    const chunk = units.slice(i, i + 100);
    let keysLeft: Record<string, unknown>[] = chunk.map((u) => ({ imei: u.imei }));
    for (let attempt = 0; keysLeft.length && attempt < 8; attempt++) {
      const out = await dynamo().send(new BatchGetCommand({ RequestItems: { [table]: { Keys: keysLeft, ProjectionExpression: 'imei, accountId, objectDescription' } } }));
      for (const item of out.Responses?.[table] ?? []) {
        const unit = chunk.find((u) => u.imei === item['imei']);
        const description = item['objectDescription'] as { model?: unknown } | undefined;
        if (unit && item['accountId'] === unit.accountId && typeof description?.model === 'string') models.set(unit.imei, description.model);
      }
      keysLeft = (out.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return models;
}

function bookingView(b: StoredBooking, caller: Caller, zone: string, names: ReadonlyMap<string, string>, registration: string, now: number): Booking {
  const start = isoInZone(b.startTs, zone);
  const end = isoInZone(b.endTs, zone);
  return {
    id: b.id,
    booking_id: b.id,
    imei: b.imei,
    registration_number: registration,
    date: start.slice(0, 10),
    start_time: start.slice(11, 16),
    end_time: end.slice(11, 16),
    start_date: start,
    end_date: end,
    purpose: b.purpose,
    driver_id: b.driverId,
    booked_by: b.driverId,
    driver_name: names.get(b.driverId) ?? '',
    editable: mayChange(caller, b) && b.startTs > now,
  };
}

/** An admin changes any booking of the account, an ordinary user only their own (spec section 6). */
const mayChange = (caller: Caller, b: StoredBooking): boolean => caller.isAdmin || b.driverId === caller.userId;

function groupByUnit(list: readonly StoredBooking[]): Map<string, StoredBooking[]> {
  const byUnit = new Map<string, StoredBooking[]>();
  for (const b of list) byUnit.set(b.imei, [...(byUnit.get(b.imei) ?? []), b]);
  return byUnit;
}

interface ScheduleRequest {
  days: string[];
  imeis: readonly string[];
  /** My booking: only the caller's own bookings. */
  mine: boolean;
}

async function schedule(caller: Caller, zone: string, request: ScheduleRequest, now: Date): Promise<CarSchedule> {
  const from = request.days[0] as string;
  const to = request.days[request.days.length - 1] as string;
  const fromMs = startOfLocalDay(from, zone);
  const toMs = startOfLocalDay(addDays(to, 1), zone);
  const wanted = new Set(request.imeis);
  const collator = new Intl.Collator(caller.lang, { sensitivity: 'base', numeric: true });
  const units = (await listUnits(caller))
    .filter((u) => bookable(u) && (wanted.size === 0 || wanted.has(u.imei)))
    .sort((a, b) => collator.compare(a.name, b.name) || (a.imei < b.imei ? -1 : 1));
  const shown = new Set(units.map((u) => u.imei));

  const [models, users, byUnit, oldest] = await Promise.all([
    modelsOf(units),
    accountUsers(caller.accountId),
    request.mine
      ? driverBookings(caller.userId, fromMs, toMs).then((list) => groupByUnit(list.filter((b) => shown.has(b.imei) && b.accountId === caller.accountId)))
      : mapLimited(units, 8, (u) => unitBookings(u.imei, fromMs, toMs)).then((lists) => new Map(units.map((u, i) => [u.imei, (lists[i] ?? []).filter((b) => b.accountId === caller.accountId)]))),
    request.mine
      ? oldestDriverBooking(caller.userId)
      : mapLimited(units, 8, (u) => oldestUnitBooking(u.imei)).then((all) => all.reduce<number | null>((min, at) => (at !== null && (min === null || at < min) ? at : min), null)),
  ]);
  const names = new Map(users.map((u) => [u.userId, fullName(u)]));
  const nowMs = now.getTime();
  const vehicles: VehicleSchedule[] = units.map((u) => ({
    ID: u.imei,
    Name: u.name,
    RegistrationNumber: u.registrationNumber ?? '',
    Model: models.get(u.imei) ?? '',
    Imei: u.imei,
    SubscriptionType: u.subscriptionType ?? null,
    Schedule: (byUnit.get(u.imei) ?? []).sort((a, b) => a.startTs - b.startTs).map((b) => bookingView(b, caller, zone, names, u.registrationNumber ?? '', nowMs)),
  }));
  return { BookingSchedules: vehicles, OldestBooking: oldest === null ? null : localDayOf(oldest, zone), from, to };
}

export const weekSchedule = (caller: Caller, zone: string, query: { week_day: string; Imeis: string[] }, now: Date) =>
  schedule(caller, zone, { days: weekOf(query.week_day), imeis: query.Imeis, mine: false }, now);

export const monthSchedule = (caller: Caller, zone: string, query: { month: string; Imeis: string[] }, now: Date) =>
  schedule(caller, zone, { days: monthGrid(query.month), imeis: query.Imeis, mine: true }, now);

/** The users of the account who may use the vehicle: admins and the ordinary users granted it. */
const mayUseVehicle = (user: Pick<Person, 'isAdmin' | 'unitImeis'>, imei: string): boolean => user.isAdmin || (user.unitImeis ?? []).includes(imei);

/** Who the vehicle can be booked for: an admin any user who may use it, an ordinary user themself. */
export async function vehicleDrivers(caller: Caller, imei: string): Promise<BookingDriver[]> {
  await bookableUnit(caller, imei);
  const collator = new Intl.Collator(caller.lang, { sensitivity: 'base' });
  const users = await accountUsers(caller.accountId);
  return users
    .filter((u) => (caller.isAdmin ? mayUseVehicle(u, imei) : u.userId === caller.userId))
    .sort((a, b) => collator.compare(fullName(a), fullName(b)) || (a.userId < b.userId ? -1 : 1))
    .map((u) => ({ ID: u.userId, FirstName: u.firstName ?? '', LastName: u.lastName ?? '' }));
}

/** A request's date-time as the wall time of the zone (an offset is converted), or the text as sent. */
function wallTimeOf(text: string, zone: string): string {
  const split = splitBookingTime(text);
  if (!split || !split.offset) return split?.wall ?? text;
  return isoInZone(Date.parse(`${split.wall}:00${split.offset}`), zone).slice(0, 16);
}

const wallNow = (now: Date, zone: string) => isoInZone(now.getTime(), zone).slice(0, 16);

interface Checked {
  unit: UnitItem;
  startMs: number;
  endMs: number;
}

/** The field rules, the vehicle and the driver of a save; 422 or 404 when they refuse it. */
async function checkSave(caller: Caller, zone: string, body: BookingSave, now: Date, editing: boolean): Promise<Checked> {
  const fields = { ...body, start_date: wallTimeOf(body.start_date, zone), end_date: wallTimeOf(body.end_date, zone) };
  const errors: BookingFieldErrors = bookingFieldErrors(fields, wallNow(now, zone));
  const refuse = (extra: BookingFieldErrors = {}) => {
    const all = { ...errors, ...extra };
    const message = refusedForThePast(all) ? (editing ? keys.ErrEditPastDateMsg : keys.ErrSavePastDateMsg) : 'ValidationFailed';
    return new ValidationError(all as Record<string, string[]>, message);
  };
  if (Object.keys(errors).length) throw refuse();
  const unit = await bookableUnit(caller, body.imei);
  const driverId = body.driver_id.trim();
  if (!caller.isAdmin && driverId !== caller.userId) throw refuse({ driver_id: [keys.BookOnlyForYourself] });
  if (caller.isAdmin) {
    const driver = await accountUser(caller.accountId, driverId);
    if (!driver || !mayUseVehicle(driver, unit.imei)) throw refuse({ driver_id: [keys.DriverCannotUseVehicle] });
  }
  return { unit, startMs: parseDateTime(fields.start_date, zone), endMs: parseDateTime(fields.end_date, zone) };
}

const overlapError = () => new ValidationError({ start_date: [keys.AlreadyBookedSlot] }, keys.AlreadyBookedSlot);

/** Waits a little before another attempt; the wait grows with the attempts and is random, so racers spread. */
const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(10 * 2 ** attempt, 200)));

/** The booking by id as the caller may change it: 404 when it is none of the caller's account, 403 another's, 422 begun. */
async function changeableBooking(caller: Caller, id: string, now: Date): Promise<StoredBooking> {
  const booking = await getBooking(id);
  if (!booking || booking.accountId !== caller.accountId) throw new NotFoundError(keys.BookingNotFound);
  // A booking of a vehicle the caller may not see is none (rule 1).
  if (caller.unitImeis !== undefined && !caller.unitImeis.includes(booking.imei)) throw new NotFoundError(keys.BookingNotFound);
  if (!mayChange(caller, booking)) throw new ForbiddenError(keys.CannotEditOthersBooking);
  if (booking.startTs <= now.getTime()) throw new ValidationError({ id: [keys.BookingAlreadyStarted] }, keys.BookingAlreadyStarted);
  return booking;
}

/**
 * Saves a new booking (`id` null) or a change: checks, then reads the version of every vehicle it
 * touches and after that the vehicle's bookings around it, refuses an overlap, and commits on the
 * versions read; a lost race reads and checks everything again.
 */
async function save(caller: Caller, zone: string, body: BookingSave, id: string | null, clock: () => Date): Promise<Booking> {
  // Whose it is and whether it has begun come before what the new times are.
  if (id !== null) await changeableBooking(caller, id, clock());
  const { unit, startMs, endMs } = await checkSave(caller, zone, body, clock(), id !== null);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (attempt) await backoff(attempt);
    const now = clock();
    const previous = id === null ? null : await changeableBooking(caller, id, now);
    const touched = new Set([unit.imei, ...(previous ? [previous.imei] : [])]);
    const seen = new Map<string, number>();
    for (const imei of touched) seen.set(imei, await readVersion(imei));
    const around = await unitBookings(unit.imei, startMs, endMs, true);
    if (around.some((b) => b.id !== id && overlaps({ startMs, endMs }, { startMs: b.startTs, endMs: b.endTs }))) throw overlapError();
    const bookingId = id ?? randomUUID();
    const next: StoredBooking = {
      id: bookingId,
      imei: unit.imei,
      accountId: caller.accountId,
      driverId: body.driver_id.trim(),
      startTs: startMs,
      endTs: endMs,
      purpose: body.purpose.trim(),
      createdBy: previous?.createdBy ?? caller.userId,
      createdAt: previous?.createdAt ?? now.toISOString(),
      ...(previous ? { updatedAt: now.toISOString() } : {}),
      sk: slotKey(startMs, bookingId),
    };
    try {
      await commitBooking(next, seen, previous);
    } catch (error) {
      if (lostTransactionRace(error)) continue;
      throw error;
    }
    const driver = await accountUser(caller.accountId, next.driverId);
    const names = new Map(driver ? [[driver.userId, fullName(driver)]] : []);
    return bookingView(next, caller, zone, names, unit.registrationNumber ?? '', now.getTime());
  }
  throw new ConflictError(keys.BookingChanged);
}

export const createBooking = (caller: Caller, zone: string, body: BookingSave, clock: () => Date) => save(caller, zone, body, null, clock);

export const updateBooking = (caller: Caller, zone: string, id: string, body: BookingSave, clock: () => Date) => save(caller, zone, body, id, clock);

export async function deleteBooking(caller: Caller, id: string, clock: () => Date): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (attempt) await backoff(attempt);
    const booking = await changeableBooking(caller, id, clock());
    try {
      await removeBooking(booking);
      return;
    } catch (error) {
      if (lostTransactionRace(error)) continue;
      throw error;
    }
  }
  throw new ConflictError(keys.BookingChanged);
}
