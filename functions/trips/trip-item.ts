/**
 * The stored trip (table `trips`: partition `imei`, sort `startTs`, so a unit's period is one
 * Query) and what the API answers for it (shared/schemas/trips.ts). Every read goes through
 * `parseTripItem`, so no code casts an item.
 *
 * What a user did not set is absent, not null (an absent address is one the geocoder was not
 * asked for yet, an empty one one it knows none for; both are null in the API). `edited` names the fields a user set (type, purpose, note, driverId, passengers,
 * project): re-detection carries them over and never overwrites them, and a check-in does not
 * change a driver a user chose. `joined` is present on a merged trip and holds the two trips' own
 * records, which split restores. `attestationId` locks the trip. `v` counts changes: every write
 * but the first is conditional on the version it read. `changes` is the trip's change log since
 * detection (the trip log report's appendix): the last CHANGES_KEPT changes, oldest first.
 */
import { z } from 'zod';
import { tripTypeSchema, type Trip, type TripType } from '../../shared/schemas/trips';
import { IMEI_PATTERN } from '../../shared/validators/imei';
import { isoInZone } from '../../shared/local-time';

/** The fields a user may set; date, times and distance are never editable. */
export const editableFields = ['type', 'purpose', 'note', 'driverId', 'passengers', 'project'] as const;
export type EditableField = (typeof editableFields)[number];

/** What a change log entry may name: an editable field, or a merge or split of the trip. */
export const changeFields = [...editableFields, 'merged', 'split'] as const;
export type ChangeField = (typeof changeFields)[number];

/**
 * One change of a trip after detection: when (ms), by whom (user id), which field, and its value
 * before and after (null: not set). For `merged`, `from` is the trip's own span before the merge and
 * `to` the span of the trip joined to it; for `split`, `from` is the merged trip's span and `to`
 * this trip's own; a span is `<start>/<stop>` in ISO 8601 UTC (`spanText`).
 */
export interface TripChange {
  at: number;
  by: string;
  field: ChangeField;
  from: string | null;
  to: string | null;
}

/** Changes kept per trip: the newest, a bounded item whatever is done to a trip. */
export const CHANGES_KEPT = 100;

const tripChangeSchema = z.object({
  at: z.number(),
  by: z.string(),
  field: z.enum(changeFields),
  from: z.string().nullable().catch(null),
  to: z.string().nullable().catch(null),
}) satisfies z.ZodType<TripChange>;

/** Lenient: an entry that does not parse is left out, never the trip. */
const changeList = z.array(z.unknown()).transform((list) =>
  list.flatMap((entry) => {
    const parsed = tripChangeSchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  }),
);

/** Two logs as one, oldest first, with the newest CHANGES_KEPT kept; undefined when empty. */
export function joinChanges(...logs: readonly (readonly TripChange[] | undefined)[]): TripChange[] | undefined {
  const all = logs.flatMap((log) => log ?? []).sort((a, b) => a.at - b.at);
  return all.length ? all.slice(-CHANGES_KEPT) : undefined;
}

/** A trip's span as a change log value: `<start>/<stop>`, ISO 8601 UTC. */
export const spanText = (trip: Pick<TripItem, 'startTs' | 'stopTs'>): string => `${new Date(trip.startTs).toISOString()}/${new Date(trip.stopTs).toISOString()}`;

/** A string set as DynamoDB returns it, or a list. */
const stringSet = z.union([z.set(z.string()), z.array(z.string())]).transform((v) => [...v].sort());
const text = z.string().min(1).optional().catch(undefined);
/** Absent: the geocoder was not asked yet; empty: it knows no address there (functions/trips/trip-addresses.ts). */
const address = z.string().optional().catch(undefined);

const tripFields = {
  stopTs: z.number(),
  startLat: z.number(),
  startLon: z.number(),
  stopLat: z.number(),
  stopLon: z.number(),
  startAddress: address,
  stopAddress: address,
  distanceM: z.number(),
  startCounterM: z.number(),
  stopCounterM: z.number(),
  counterSource: z.enum(['tracker', 'computed']),
  maxSpeedKmh: z.number().optional().catch(undefined),
  /** Seconds in motion and idling (ignition on, standing), from detection; absent on trips detected before they were kept. */
  movingS: z.number().optional().catch(undefined),
  idleS: z.number().optional().catch(undefined),
  basis: z.enum(['ignition', 'movement']).optional().catch(undefined),
  type: tripTypeSchema.catch('business'),
  purpose: text,
  note: text,
  driverId: text,
  passengers: text,
  project: text,
  edited: stringSet.optional().catch(undefined),
  editedAt: z.number().optional().catch(undefined),
  editedBy: text,
  expiresAt: z.number().optional().catch(undefined),
  changes: changeList.optional().catch(undefined),
};

/** One of the two trips a merge joined, as it was stored. */
export const tripPartSchema = z.object({ startTs: z.number(), ...tripFields });
export type TripPart = z.infer<typeof tripPartSchema>;

export const tripItemSchema = z.object({
  imei: z.string().regex(IMEI_PATTERN),
  startTs: z.number(),
  accountId: z.string().min(1),
  ...tripFields,
  joined: z.tuple([tripPartSchema, tripPartSchema]).optional(),
  attestationId: text,
  v: z.number().int().nonnegative().catch(0),
});
export type TripItem = z.infer<typeof tripItemSchema>;

export function parseTripItem(raw: Record<string, unknown>): TripItem {
  return tripItemSchema.parse(raw);
}

/** Opaque to clients: the unit and the start. */
export const tripIdOf = (trip: Pick<TripItem, 'imei' | 'startTs'>): string => `${trip.imei}-${trip.startTs}`;

export function parseTripId(id: string): { imei: string; startTs: number } | null {
  const match = /^(\d{15})-(\d{1,15})$/.exec(id);
  if (!match || !IMEI_PATTERN.test(match[1] ?? '')) return null;
  return { imei: match[1] as string, startTs: Number(match[2]) };
}

export const isMerged = (trip: Pick<TripItem, 'joined'>): boolean => trip.joined !== undefined;
export const isAttested = (trip: Pick<TripItem, 'attestationId'>): boolean => trip.attestationId !== undefined;
export const editedFieldsOf = (trip: Pick<TripItem, 'edited'>): EditableField[] =>
  (trip.edited ?? []).filter((f): f is EditableField => (editableFields as readonly string[]).includes(f));

/** The part of a trip that a merge keeps in `joined`: everything of its own. */
export function partOf(trip: TripItem): TripPart {
  const { imei: _imei, accountId: _account, joined: _joined, attestationId: _attestation, v: _v, ...own } = trip;
  return own;
}

/** km with up to 3 decimals. */
export const km = (metres: number): number => Math.round(metres) / 1000;

/** The unit's odometer (km) at a trip's start and stop, or null when it is not known (functions/trips/odometer.ts). */
export interface Odometers {
  start: number | null;
  stop: number | null;
}

export function toTrip(item: TripItem, zone: string, odometers: Odometers, driverName: string | null): Trip {
  return {
    id: tripIdOf(item),
    imei: item.imei,
    startTime: isoInZone(item.startTs, zone),
    stopTime: isoInZone(item.stopTs, zone),
    startAddress: item.startAddress || null,
    stopAddress: item.stopAddress || null,
    startLat: item.startLat,
    startLon: item.startLon,
    stopLat: item.stopLat,
    stopLon: item.stopLon,
    startOdometer: odometers.start,
    stopOdometer: odometers.stop,
    distance: km(item.distanceM),
    type: item.type,
    purpose: item.purpose ?? null,
    note: item.note ?? null,
    driverId: item.driverId ?? null,
    driverName: item.driverId === undefined ? null : driverName,
    passengers: item.passengers ?? null,
    project: item.project ?? null,
    merged: isMerged(item),
    attested: isAttested(item),
  };
}

/** A new detected trip's type: the unit's default (no unit sets one yet, so business). Places rules come later. */
export function defaultTripTypeOf(_unit: unknown): TripType {
  return 'business';
}
