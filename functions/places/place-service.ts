/**
 * Places: who sees which, what a save checks, and re-applying a rule to stored trips.
 *
 * An admin sees every place of the account; an ordinary user the places whose units are all
 * granted to them (anything else is answered as not existing), and may assign only those units.
 * A 'between' rule names another place of the account assigned to every unit of this one (trip
 * detection reads both from the unit); that place then cannot lose those units or be deleted.
 */
import { randomUUID } from 'node:crypto';
import { placeMessageKeys as keys, type Place, type PlaceApply, type PlaceApplyRequest, type PlaceInput } from '../../shared/schemas/places';
import type { AuthContext } from '../platform/auth-context';
import { ConflictError, NotFoundError, ValidationError, type FieldErrors } from '../platform/errors';
import { localDaysRange } from '../../shared/local-time';
import { getUnitItems } from '../domain/unit/reads';
import type { UnitItem, UnitPlace } from '../domain/unit/schema';
import { unitTrips, updateTripFields } from '../trips/trip-repository';
import { tripsChanged } from '../trips/unit-days';
import type { Ports } from '../platform/ports';
import { matchPlaceRule } from './place-rules';
import { accountPlaces, toPlace, unitCopyOf, writePlace, type PlaceItem } from './place-repository';

type Caller = Pick<AuthContext, 'accountId' | 'unitImeis' | 'userId'>;

const mayUseUnit = (caller: Caller, imei: string): boolean => caller.unitImeis === undefined || caller.unitImeis.includes(imei);
const mayUsePlace = (caller: Caller, place: PlaceItem): boolean => place.imeis.every((imei) => mayUseUnit(caller, imei));
const byLabel = (a: PlaceItem, b: PlaceItem) => a.label.localeCompare(b.label, 'sv') || a.id.localeCompare(b.id);

export async function listPlaces(caller: Caller): Promise<Place[]> {
  return (await accountPlaces(caller.accountId)).filter((p) => mayUsePlace(caller, p)).sort(byLabel).map(toPlace);
}

function visible(caller: Caller, all: readonly PlaceItem[], id: string): PlaceItem {
  const place = all.find((p) => p.id === id);
  if (!place || !mayUsePlace(caller, place)) throw new NotFoundError(keys.PlaceNotFound);
  return place;
}

export async function getPlace(caller: Caller, id: string): Promise<Place> {
  return toPlace(visible(caller, await accountPlaces(caller.accountId), id));
}

/** Places whose 'between' rule names `id`. */
const namedBy = (all: readonly PlaceItem[], id: string) => all.filter((p) => p.id !== id && p.rule.when === 'between' && p.rule.otherPlaceId === id);

/** Creates (id null) or replaces a place; answers its id. */
export async function savePlace(caller: Caller, id: string | null, input: PlaceInput, timeZone: string, now: number): Promise<string> {
  const all = await accountPlaces(caller.accountId);
  const previous = id === null ? null : visible(caller, all, id);
  const placeId = previous?.id ?? randomUUID();
  const units = await getUnitItems([...new Set([...input.imeis, ...(previous?.imeis ?? [])])]);
  const unitOf = (imei: string): UnitItem | null => {
    const unit = units.get(imei);
    return unit && !(unit instanceof Error) && unit.accountId === caller.accountId ? unit : null;
  };

  const errors: FieldErrors = {};
  if (input.imeis.some((imei) => !mayUseUnit(caller, imei) || !unitOf(imei))) errors['imeis'] = [keys.PlaceUnitNotFound];
  const namers = previous ? namedBy(all, previous.id) : [];
  if (!errors['imeis'] && namers.some((p) => p.imeis.some((imei) => !input.imeis.includes(imei)))) errors['imeis'] = [keys.PlaceUsedByRule];
  let other: PlaceItem | undefined;
  if (input.rule.when === 'between') {
    const otherId = input.rule.otherPlaceId as string;
    other = all.find((p) => p.id === otherId && mayUsePlace(caller, p));
    if (otherId === placeId) errors['rule.otherPlaceId'] = [keys.OtherPlaceIsThisPlace];
    else if (!other) errors['rule.otherPlaceId'] = [keys.OtherPlaceNotFound];
    else if (input.imeis.some((imei) => !other?.imeis.includes(imei))) errors['rule.otherPlaceId'] = [keys.OtherPlaceMissingUnits];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);

  const next: PlaceItem = {
    accountId: caller.accountId,
    id: placeId,
    label: input.label,
    address: input.address,
    lat: input.lat,
    lon: input.lon,
    radius: input.radius,
    imeis: input.imeis,
    rule: input.rule,
    schedule: input.schedule,
    timeZone,
    v: (previous?.v ?? 0) + 1,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    updatedBy: caller.userId,
  };
  const dropped = (previous?.imeis ?? []).filter((imei) => !input.imeis.includes(imei));
  await writePlace({
    next,
    previous,
    unchanged: namers,
    touched: other ? [other] : [],
    setOn: input.imeis.map((imei) => unitOf(imei) as UnitItem),
    removeFrom: dropped.map(unitOf).filter((u): u is UnitItem => u !== null && u.places?.[placeId] !== undefined),
  });
  return placeId;
}

export async function deletePlace(caller: Caller, id: string): Promise<void> {
  const all = await accountPlaces(caller.accountId);
  const previous = visible(caller, all, id);
  const namers = namedBy(all, id);
  if (namers.length) throw new ConflictError(keys.PlaceUsedByRule);
  const units = await getUnitItems(previous.imeis);
  const holding = [...units.values()].filter((u): u is UnitItem => !(u instanceof Error) && u.places?.[id] !== undefined);
  await writePlace({ next: null, previous, unchanged: [], touched: [], setOn: [], removeFrom: holding });
}

/**
 * Gives the place's rule type to its units' trips that start in the period and match the rule
 * (functions/places/place-rules.ts, the other place of a 'between' rule as saved). Attested trips
 * are counted, not changed; the type is recorded as the caller's edit, so re-detection keeps it.
 */
export async function applyPlace(caller: Caller, id: string, period: PlaceApplyRequest, timeZone: string, now: number, ports: Pick<Ports, 'queues'>): Promise<PlaceApply> {
  const all = await accountPlaces(caller.accountId);
  const place = visible(caller, all, id);
  const copies: Record<string, UnitPlace> = Object.fromEntries(all.map((p) => [p.id, unitCopyOf(p)]));
  const copy = copies[id] as UnitPlace;
  const { fromMs, toMs } = localDaysRange(period.from, period.to, timeZone);
  const units = await getUnitItems(place.imeis);
  const result: PlaceApply = { changed: 0, attested: 0 };
  // The units side by side, each unit's trips one after another (as attestation locks them).
  await Promise.all(
    [...units.values()].map(async (unit) => {
      if (unit instanceof Error || unit.accountId !== caller.accountId) return;
      const changed: number[] = [];
      for (const trip of await unitTrips(unit, fromMs, toMs - 1)) {
        if (!matchPlaceRule(id, copy, trip, copies)) continue;
        if (trip.attestationId !== undefined) result.attested++;
        else if (trip.type !== copy.rule.type && (await updateTripFields(trip, { type: copy.rule.type }, caller.userId, now))) changed.push(trip.startTs);
      }
      result.changed += changed.length;
      // A trip's type is in the day rollups' figures.
      await tripsChanged(ports, unit.accountId, unit.imei, changed);
    }),
  );
  return result;
}
