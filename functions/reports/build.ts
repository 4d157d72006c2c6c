/**
 * Builds a report's model (shared/schemas/reports.ts) for a caller: checks who may run which kind
 * on which units, reads what the kind needs (trips, day figures, attestations; the theft report
 * also the unit's details, positions, events and commands), and hands it to the kind's pure
 * function. The screen answer and every export come from here.
 *
 * The rules (docs/decisions/0034-reports.md): a feature profile's report list limits an ordinary
 * user; a basic-only account runs the trip log report only; a unit locked by someone else allows
 * only the benefit value and summary reports (named explicitly otherwise: 403; among all units: left
 * out, with a note); a unit the caller may not see is 404.
 */
import { isoInZone, localDayOf, localDaysRange, startOfLocalDay } from '../../shared/local-time';
import type { Language } from '../../shared/schemas/common';
import { basicReportKinds, reportKinds, lockedUnitReportKinds, type ReportKind, type ReportModel, type ReportRequest, type ReportUnit } from '../../shared/schemas/reports';
import { addMonthsToDay, type TripType } from '../../shared/schemas/trips';
import { formatPhone } from '../../shared/validators/phone';
import { defaultPhoneCountry } from '../../shared/validators/phone-rule';
import { registeredAtOf, type UnitItem } from '../domain/unit/schema';
import { unitEvents } from '../events/event-repository';
import { toEvent } from '../events/event-item';
import type { AuthContext } from '../platform/auth-context';
import { getAccountFields } from '../domain/account/reads';
import { mapLimited } from '../platform/concurrency';
import { ForbiddenError } from '../platform/errors';
import { lastPositionBefore, unitPositions } from '../tracking/position-repository';
import { getUnit, listUnits } from '../tracking/unit-repository';
import { unitAttestations } from '../trips/attestation-reads';
import { namesOf } from '../trips/people';
import { unitTrips } from '../trips/trip-repository';
import { withAddresses } from '../trips/trip-addresses';
import { tripViews } from '../trips/trip-views';
import { resolvedOdometerEntries, type OdometerEntryItem } from '../trips/odometer';
import { ROLLUP_ZONE, type UnitDay, type UnitMonth } from '../trips/unit-day-item';
import { readAccountDays, readAccountMonths, readUnitDays, unitDayOdometers } from '../trips/unit-day-reads';
import type { TripChange, TripItem } from '../trips/trip-item';
import { readUnit } from '../units/editor/unit-editor-repository';
import { listCommands } from '../units/command-repository';
import { isLockedFor } from '../units/lock-rules';
import { textsFor, type Texts } from './columns';
import { tripFigures, type Figures, addFigures } from './figures';
import { benefitCharts, benefitColumns, benefitNotes, benefitUnit } from './kinds/benefit-value';
import { distanceChart, distancesOf, figuresMissingOf, splitByMonths, fleetTotals, largeSummaryColumns, largeSummaryUnits, summaryColumns, summaryUnits, type SummarySection } from './kinds/summary';
import { theftColumns, theftUnit } from './kinds/theft';
import { environmentalColumns, environmentalReport, previousPeriod } from './kinds/environmental';
import { fuelConsumptionColumns, fuelConsumptionNotes, fuelConsumptionTotals, fuelConsumptionUnits, type FuelPrices } from './kinds/fuel-consumption';
import type { DriveShare, FuelUnit } from './kinds/fuel-use';
import { organisationNames } from '../organisation/organisation-items';
import { ecoColumns, ecoFleetTotals, ecoNotes, ecoUnits, type EcoSection, type EcoTrip } from './kinds/eco-driving';
import { DEFAULT_ECO_WEIGHTS, ecoCountsIn, type EcoEvent, type EcoWeights } from '../../shared/eco';
import { unitEcoEvents } from '../events/event-repository';
import { tripLogColumns, tripLogUnit } from './kinds/trip-log';
import { congestionColumns, congestionTotals, congestionUnit } from './kinds/congestion';
import { unitPassages } from '../congestion/passage-repository';
import { TAX_ZONE } from '../../shared/congestion/tariff-tables';

export interface BuildInput {
  request: ReportRequest;
  caller: AuthContext;
  lang: Language;
  timeZone: string;
  now: Date;
  /** Called with the share of the units read so far (0..1). */
  onProgress?: (fraction: number) => void;
  /**
   * How long the trip log waits for the addresses of trips reported for the first time
   * (functions/trips/trip-addresses.ts); the rest is queued and in the next run. Default
   * REPORT_ADDRESS_BUDGET_MS, for a report answered over HTTP.
   */
  addressBudgetMs?: number;
}

/** A report answered over HTTP waits this long for addresses, well within API Gateway's 30 s. */
export const REPORT_ADDRESS_BUDGET_MS = 5_000;

/** Units read at once. */
const PARALLEL = 8;
/** Positions a theft report lists after the theft. */
export const THEFT_POSITIONS_MAX = 2000;
/** Events a theft report lists after the theft. */
const THEFT_EVENTS_MAX = 500;
const THEFT_COMMANDS_MAX = 50;


/**
 * The kinds the caller may run at all: the feature profile's list (read on every request, so a
 * changed profile counts at once; a deleted profile limits no one), the trip log only on a
 * basic-only account. Admins have no profile.
 */
export async function allowedReportKinds(caller: Pick<AuthContext, 'accountId' | 'featureProfileId'>): Promise<ReportKind[]> {
  const account = await getAccountFields(caller.accountId, ['features', 'featureProfiles']);
  const profile = caller.featureProfileId === undefined ? undefined : account?.featureProfiles?.[caller.featureProfileId];
  let kinds: ReportKind[] = [...reportKinds];
  if (profile) kinds = kinds.filter((k) => (profile.reports as readonly string[]).includes(k));
  if (account?.features?.basicOnly) kinds = kinds.filter((k) => (basicReportKinds as readonly string[]).includes(k));
  return kinds;
}

const mayRunOnLocked = (kind: ReportKind) => (lockedUnitReportKinds as readonly string[]).includes(kind);

/** The units a report covers, in name order, and how many locked ones were left out. */
async function reportUnits(input: Pick<BuildInput, 'request' | 'caller' | 'lang'>): Promise<{ units: UnitItem[]; leftOut: number }> {
  const { request, caller } = input;
  const named = request.imeis?.length ? request.imeis : null;
  const all = named ? await Promise.all(named.map((imei) => getUnit(caller, imei))) : await listUnits(caller);
  const filtered = all.filter(
    (u) => (!request.department || (u.departmentIds ?? []).includes(request.department)) && (!request.tag || (u.departmentIds ?? []).includes(request.tag)),
  );
  const locked = filtered.filter((u) => isLockedFor(caller, u));
  if (locked.length && !mayRunOnLocked(request.kind)) {
    if (named) throw new ForbiddenError('ReportNotAllowed');
  }
  const units = mayRunOnLocked(request.kind) ? filtered : filtered.filter((u) => !isLockedFor(caller, u));
  const collator = new Intl.Collator(input.lang);
  units.sort((a, b) => collator.compare(a.name, b.name) || a.imei.localeCompare(b.imei));
  return { units, leftOut: filtered.length - units.length };
}

function tripMatches(trip: TripItem, request: ReportRequest): boolean {
  return (
    (!request.type || trip.type === request.type) &&
    (!request.driverId || trip.driverId === request.driverId) &&
    (!request.project || trip.project?.trim().toLowerCase() === request.project.toLowerCase())
  );
}

/** The trips of each unit in the period, filtered, with progress. */
async function tripsOfUnits(units: readonly UnitItem[], input: BuildInput): Promise<TripItem[][]> {
  const { fromMs, toMs } = localDaysRange(input.request.from, input.request.to, input.timeZone);
  let done = 0;
  return mapLimited(units, PARALLEL, async (unit) => {
    const trips = (await unitTrips(unit, fromMs, toMs - 1)).filter((t) => tripMatches(t, input.request));
    done++;
    input.onProgress?.(done / units.length);
    return trips;
  });
}

const changesOf = (trip: TripItem): TripChange[] => trip.changes ?? [];

async function buildTripLog(units: readonly UnitItem[], input: BuildInput, x: Texts): Promise<ReportUnit[]> {
  const { request, caller, timeZone } = input;
  const read = await tripsOfUnits(units, input);
  const filled = await withAddresses(read.flat(), input.addressBudgetMs ?? REPORT_ADDRESS_BUDGET_MS);
  let next = 0;
  const trips = read.map((unitTrips) => filled.slice(next, (next += unitTrips.length)));
  const earliest = addMonthsToDay(request.from, -12);
  const loaded = await mapLimited(units, PARALLEL, async (unit, i) => {
    const items = trips[i] ?? [];
    const [views, attestations] = await Promise.all([tripViews(unit, items, timeZone), unitAttestations(unit.accountId, unit.imei, earliest, request.from, request.to)]);
    return { unit, items, views, attestations };
  });
  const people = new Set<string>();
  for (const u of loaded) {
    for (const a of u.attestations) people.add(a.userId);
    for (const t of u.items) {
      if (t.driverId) people.add(t.driverId);
      for (const c of changesOf(t)) {
        people.add(c.by);
        if (c.field === 'driverId') for (const id of [c.from, c.to]) if (id) people.add(id);
      }
    }
  }
  const names = await namesOf(caller.accountId, people);
  const iso = (ms: number) => isoInZone(ms, timeZone);
  return loaded.map((u) =>
    tripLogUnit(
      {
        imei: u.unit.imei,
        name: u.unit.name,
        registrationNumber: u.unit.registrationNumber ?? null,
        trips: u.views.map((view, i) => ({ view, changes: changesOf(u.items[i] as TripItem) })),
        attestations: u.attestations,
      },
      { viewer: caller, names, iso },
      x,
    ),
  );
}

/** Whether the day rollups answer a summary: per unit, without a trip filter, in their zone. */
const rollupsAnswer = (request: ReportRequest, by: 'unit' | 'driver', zone: string): boolean =>
  by === 'unit' && !request.type && !request.driverId && !request.project && zone === ROLLUP_ZONE;

/** A day or month rollup as figures, its odometers from the unit's entries. */
function rollupFigures(day: UnitDay | UnitMonth, entries: readonly OdometerEntryItem[]): Figures {
  const odometers = unitDayOdometers(day, entries);
  return {
    trips: day.trips,
    distanceM: day.distanceM,
    byType: day.byType,
    movingS: day.movingS,
    idleS: day.idleS,
    figuresMissing: day.figuresMissing,
    maxSpeedKmh: day.maxSpeedKmh,
    firstStartTs: day.firstStartTs,
    lastStopTs: day.lastStopTs,
    startOdometer: odometers.start,
    stopOdometer: odometers.stop,
  };
}

/** Units from which a report reads the account's days (one Query per day) rather than each unit's (one per unit). */
const ACCOUNT_DAYS_FROM_UNITS = 20;

/**
 * Each unit's figures from its rollups: its days, or for many units the account's days and, where
 * the period covers whole months and the report does not split them, the account's months.
 */
async function rollupSections(units: readonly UnitItem[], input: BuildInput): Promise<SummarySection[]> {
  const { from, to, kind, groupBy } = input.request;
  const accountId = input.caller.accountId;
  const byAccount = units.length >= ACCOUNT_DAYS_FROM_UNITS;
  const split = byAccount && (kind === 'summary' || (groupBy ?? 'month') === 'month') ? splitByMonths(from, to) : { months: [], dayRanges: [[from, to]] as [string, string][] };
  const [accountMonths, accountDays] = byAccount
    ? await Promise.all([readAccountMonths(accountId, split.months), Promise.all(split.dayRanges.map(([a, b]) => readAccountDays(accountId, a, b))).then((d) => d.flat())])
    : [[], []];
  const rollupsOf = new Map<string, (UnitDay | UnitMonth)[]>();
  for (const r of [...accountMonths, ...accountDays]) rollupsOf.set(r.imei, [...(rollupsOf.get(r.imei) ?? []), r]);
  let done = 0;
  return mapLimited(units, byAccount ? 16 : PARALLEL, async (unit) => {
    const [rollups, entries] = await Promise.all([byAccount ? (rollupsOf.get(unit.imei) ?? []) : readUnitDays(unit.accountId, unit.imei, from, to), resolvedOdometerEntries(unit)]);
    done++;
    input.onProgress?.(done / units.length);
    const days = new Map<string, Figures>();
    const distances = new Map<string, Record<TripType, number>>();
    for (const r of rollups) {
      if ('month' in r) {
        days.set(r.month, rollupFigures(r, entries));
        for (const d of r.daily) distances.set(d.day, { business: d.businessM, private: d.privateM, other: d.otherM });
      } else {
        days.set(r.day, rollupFigures(r, entries));
        distances.set(r.day, { business: r.byType.business.distanceM, private: r.byType.private.distanceM, other: r.byType.other.distanceM });
      }
    }
    return { id: unit.imei, name: unit.name, registrationNumber: unit.registrationNumber ?? null, days, distances };
  });
}

/** Each unit's (or driver's) figures per local day: from the day rollups where they answer, else from the trips. */
async function summarySections(units: readonly UnitItem[], input: BuildInput, by: 'unit' | 'driver', x: Texts): Promise<SummarySection[]> {
  if (rollupsAnswer(input.request, by, input.timeZone)) return rollupSections(units, input);
  const trips = await tripsOfUnits(units, input);
  const sections = new Map<string, { name: string; registrationNumber: string | null; days: Map<string, Figures> }>();
  await mapLimited(units, PARALLEL, async (unit, i) => {
    const items = trips[i] ?? [];
    const views = await tripViews(unit, items, input.timeZone);
    items.forEach((trip, k) => {
      const view = views[k];
      const id = by === 'unit' ? unit.imei : (trip.driverId ?? '');
      const section = sections.get(id) ?? { name: by === 'unit' ? unit.name : (view?.driverName ?? x.t('ReportNote_driverUnknown')), registrationNumber: by === 'unit' ? (unit.registrationNumber ?? null) : null, days: new Map() };
      const day = localDayOf(trip.startTs, input.timeZone);
      const f = tripFigures({ ...trip, startOdometer: view?.startOdometer ?? null, stopOdometer: view?.stopOdometer ?? null });
      const before = section.days.get(day);
      section.days.set(day, before ? addFigures(before, f) : f);
      sections.set(id, section);
    });
  });
  const list = (
    by === 'unit'
      ? units.map((u) => ({ id: u.imei, ...(sections.get(u.imei) ?? { name: u.name, registrationNumber: u.registrationNumber ?? null, days: new Map<string, Figures>() }) }))
      : [...sections].map(([id, s]) => ({ id, ...s }))
  ).map((section) => ({ ...section, distances: distancesOf(section.days) }));
  const collator = new Intl.Collator(input.lang);
  return by === 'unit' ? list : list.sort((a, b) => collator.compare(a.name, b.name));
}

/**
 * Each unit's driving in [from, to] as day and driver shares: from the day rollups where they
 * answer (their zone, no type or project filter; a driver filter picks the day's driver entries),
 * else from the trips.
 */
async function driveSharesOf(units: readonly UnitItem[], input: BuildInput, from: string, to: string, progress: boolean): Promise<{ shares: DriveShare[]; figuresMissing: number }[]> {
  const { request, timeZone } = input;
  const fromRollups = timeZone === ROLLUP_ZONE && !request.type && !request.project;
  const { fromMs, toMs } = localDaysRange(from, to, timeZone);
  let done = 0;
  return mapLimited(units, PARALLEL, async (unit) => {
    let read: { shares: DriveShare[]; figuresMissing: number };
    if (fromRollups) {
      const days = await readUnitDays(unit.accountId, unit.imei, from, to);
      const shares = days.flatMap((d) =>
        Object.entries(d.drivers)
          .filter(([driverId]) => !request.driverId || driverId === request.driverId)
          .map(([driverId, f]) => ({ day: d.day, driverId, distanceM: f.distanceM, idleS: f.idleS })),
      );
      read = { shares, figuresMissing: request.driverId ? 0 : days.reduce((n, d) => n + d.figuresMissing, 0) };
    } else {
      const trips = (await unitTrips(unit, fromMs, toMs - 1)).filter((t) => tripMatches(t, request));
      read = {
        shares: trips.map((t) => ({ day: localDayOf(t.startTs, timeZone), driverId: t.driverId ?? '', distanceM: t.distanceM, idleS: t.idleS ?? 0 })),
        figuresMissing: trips.filter((t) => t.idleS === undefined).length,
      };
    }
    done++;
    if (progress) input.onProgress?.(done / units.length);
    return read;
  });
}

/** The units as the fuel reports see them, with their driving in [from, to] and their department names. */
async function fuelUnitsOf(units: readonly UnitItem[], input: BuildInput, from: string, to: string): Promise<FuelUnit[]> {
  const [driving, organisation] = await Promise.all([driveSharesOf(units, input, from, to, true), organisationNames(input.caller.accountId)]);
  const collator = new Intl.Collator(input.lang);
  return units.map((unit, i) => ({
    imei: unit.imei,
    name: unit.name,
    registrationNumber: unit.registrationNumber ?? null,
    department: [...(unit.departmentIds ?? [])]
      .map((id) => organisation.departments.get(id))
      .filter((n): n is string => n !== undefined)
      .sort(collator.compare)
      .join(', '),
    fuelType: unit.fuelType ?? null,
    consumption: unit.consumption ?? null,
    idleConsumption: unit.idleConsumption ?? null,
    co2: unit.co2 ?? null,
    shares: driving[i]?.shares ?? [],
    figuresMissing: driving[i]?.figuresMissing ?? 0,
  }));
}

/** The account's market fuel price and dated prices. */
async function fuelPricesOf(accountId: string): Promise<FuelPrices> {
  const account = await getAccountFields(accountId, ['fuelPrice', 'fuelPrices']);
  return { list: account?.fuelPrices ?? [], market: typeof account?.fuelPrice === 'number' ? account.fuelPrice : null };
}

async function buildBenefit(units: readonly UnitItem[], input: BuildInput, x: Texts): Promise<{ units: ReportUnit[]; years: { name: string; years: ReturnType<typeof benefitUnit>['years'] }[] }> {
  const trips = await tripsOfUnits(units, input);
  const names = await namesOf(input.caller.accountId, trips.flat().map((t) => t.driverId));
  const built = units.map((unit, i) =>
    benefitUnit(
      {
        imei: unit.imei,
        name: unit.name,
        registrationNumber: unit.registrationNumber ?? null,
        trips: (trips[i] ?? []).map((t) => ({ day: localDayOf(t.startTs, input.timeZone), type: t.type, distanceM: t.distanceM, driverId: t.driverId ?? null })),
      },
      names,
      x,
    ),
  );
  return { units: built.map((b) => b.unit), years: built.map((b, i) => ({ name: units[i]?.name ?? '', years: b.years })) };
}

async function buildTheft(units: readonly UnitItem[], input: BuildInput, x: Texts): Promise<ReportUnit[]> {
  const { fromMs, toMs } = localDaysRange(input.request.from, input.request.to, input.timeZone);
  const iso = (ms: number) => isoInZone(ms, input.timeZone);
  const read = await mapLimited(units, PARALLEL, async (unit) => ({ unit, seen: await readUnit(unit.imei) }));
  // Among all units, only those with a theft date; a unit named explicitly is reported anyway.
  const chosen = input.request.imeis?.length ? read : read.filter((r) => r.seen?.details?.theft?.date);
  let done = 0;
  return mapLimited(chosen, PARALLEL, async ({ unit, seen }) => {
    const theft = seen?.details?.theft ?? null;
    const theftMs = Math.max(theft?.date ? startOfLocalDay(theft.date, input.timeZone) : fromMs, registeredAtOf(unit));
    const [before, after, events, commands] = await Promise.all([
      lastPositionBefore(unit, theftMs),
      theftMs < toMs ? unitPositions(unit, theftMs, toMs - 1, THEFT_POSITIONS_MAX) : Promise.resolve({ items: [], truncated: false }),
      theftMs < toMs ? unitEvents(unit, { fromMs: theftMs, toMs: toMs - 1, limit: THEFT_EVENTS_MAX }) : Promise.resolve({ items: [], more: false }),
      listCommands(unit.imei, unit.accountId, THEFT_COMMANDS_MAX),
    ]);
    done++;
    input.onProgress?.(done / chosen.length);
    const position = (p: { ts: number; lat: number; lon: number; speed?: number | null | undefined }) => ({ ts: p.ts, lat: p.lat, lon: p.lon, speed: p.speed ?? null });
    return theftUnit(
      {
        imei: unit.imei,
        name: unit.name,
        registrationNumber: unit.registrationNumber ?? null,
        theft,
        description: seen?.details?.objectDescription ?? null,
        theftMs,
        lastBefore: before ? position(before) : null,
        positions: after.items.map(position),
        positionsCapped: after.truncated,
        events: [...events.items].reverse().map((e) => toEvent(e, input.timeZone)),
        commands: commands.filter((c) => c.type === 'operatingMode' && Date.parse(c.createdAt) >= Math.min(theftMs, fromMs)).reverse(),
        iso,
        phone: (e164) => formatPhone(e164, defaultPhoneCountry(input.lang)),
      },
      x,
    );
  });
}

/** Eco events a report lists per unit (or driver); all of them count. */
export const ECO_EVENTS_LISTED = 500;

/** The account's eco score weights (shared/eco.ts), the defaults where none are saved. */
async function ecoWeightsOf(accountId: string): Promise<EcoWeights> {
  const account = await getAccountFields(accountId, ['ecoWeights']);
  return { ...DEFAULT_ECO_WEIGHTS, ...account?.ecoWeights };
}

/**
 * Each unit's (or driver's) trips with their eco counts (the unit's eco events inside each trip) and
 * the events to list: a unit's all in the period (with a trip filter: those inside the trips kept),
 * a driver's those inside the driver's trips.
 */
async function ecoSections(units: readonly UnitItem[], input: BuildInput, by: 'unit' | 'driver', x: Texts): Promise<EcoSection[]> {
  const { fromMs, toMs } = localDaysRange(input.request.from, input.request.to, input.timeZone);
  const trips = await tripsOfUnits(units, input);
  const names = await namesOf(input.caller.accountId, trips.flat().map((t) => t.driverId));
  const driverName = (id: string | undefined) => (id ? (names.get(id) ?? id) : x.t('ReportNote_driverUnknown'));
  const read = await mapLimited(units, PARALLEL, async (unit, i) => {
    const items = trips[i] ?? [];
    const lastStop = Math.max(toMs - 1, ...items.map((t) => t.stopTs));
    const events = await unitEcoEvents(unit, fromMs, lastStop);
    const ecoTrips = items.map((t): EcoTrip & { driverId: string; events: EcoEvent[] } => ({
      startTs: t.startTs,
      stopTs: t.stopTs,
      day: localDayOf(t.startTs, input.timeZone),
      figures: { distanceM: t.distanceM, movingS: t.movingS ?? 0, idleS: t.idleS ?? 0, ...ecoCountsIn(t.startTs, t.stopTs, events) },
      unitName: unit.name,
      driverName: driverName(t.driverId),
      driverId: t.driverId ?? '',
      events: events.filter((e) => e.ts >= t.startTs && e.ts <= t.stopTs),
    }));
    // With a trip filter, only the events of the trips it keeps.
    const filtered = Boolean(input.request.driverId || input.request.type || input.request.project);
    return { unit, trips: ecoTrips, events: filtered ? ecoTrips.flatMap((t) => t.events) : events.filter((e) => e.ts >= fromMs && e.ts < toMs) };
  });
  const listed = (events: readonly EcoEvent[]) => ({ events: events.slice(0, ECO_EVENTS_LISTED), eventsCapped: events.length > ECO_EVENTS_LISTED });
  if (by === 'unit') {
    return read.map((r) => ({ id: r.unit.imei, name: r.unit.name, registrationNumber: r.unit.registrationNumber ?? null, trips: r.trips, ...listed(r.events) }));
  }
  const drivers = new Map<string, { trips: EcoTrip[]; events: EcoEvent[] }>();
  for (const trip of read.flatMap((r) => r.trips)) {
    const d = drivers.get(trip.driverId) ?? { trips: [], events: [] };
    d.trips.push(trip);
    d.events.push(...trip.events);
    drivers.set(trip.driverId, d);
  }
  const collator = new Intl.Collator(input.lang);
  return [...drivers]
    .map(([id, d]) => ({ id, name: driverName(id || undefined), registrationNumber: null, trips: d.trips, ...listed(d.events.sort((a, b) => a.ts - b.ts)) }))
    .sort((a, b) => collator.compare(a.name, b.name));
}

/** A trip longer than this may hold a passage of the period though it started the day before. */
const TRIP_REACH_MS = 86_400_000;

/**
 * Each unit's passages of the period's tax days (local days in Europe/Stockholm, whatever the
 * report's zone: a day's cap is the tax day's) with the trips they were driven on.
 */
async function buildCongestion(units: readonly UnitItem[], input: BuildInput, x: Texts): Promise<ReportUnit[]> {
  const { request, caller, timeZone } = input;
  const { fromMs, toMs } = localDaysRange(request.from, request.to, TAX_ZONE);
  let done = 0;
  const loaded = await mapLimited(units, PARALLEL, async (unit) => {
    const from = Math.max(fromMs, registeredAtOf(unit));
    const [passages, trips] = await Promise.all([unitPassages(unit.accountId, unit.imei, from, toMs - 1), unitTrips(unit, from - TRIP_REACH_MS, toMs - 1)]);
    done++;
    input.onProgress?.(done / units.length);
    return { unit, passages: passages.filter((p) => p.time >= from && p.time < toMs), trips };
  });
  const names = await namesOf(caller.accountId, loaded.flatMap((u) => u.trips.map((t) => t.driverId)));
  const context = { names, iso: (ms: number) => isoInZone(ms, timeZone), type: request.type, driverId: request.driverId };
  return loaded.map(({ unit, passages, trips }) =>
    congestionUnit(
      {
        imei: unit.imei,
        name: unit.name,
        registrationNumber: unit.registrationNumber ?? null,
        passages,
        trips: trips.map((t) => ({ startTs: t.startTs, stopTs: t.stopTs, type: t.type, driverId: t.driverId ?? null })),
      },
      context,
      x,
    ),
  );
}

/**
 * What a report request may cover, or the refusal: the kind must be built and allowed, the units
 * visible, a locked one only for the kinds allowed on it. Reads no trips.
 */
export async function reportScope(input: Pick<BuildInput, 'request' | 'caller' | 'lang'>): Promise<{ kind: ReportKind; units: UnitItem[]; leftOut: number }> {
  const kind = input.request.kind;
  if (!(await allowedReportKinds(input.caller)).includes(kind)) throw new ForbiddenError('ReportNotAllowed');
  return { kind, ...(await reportUnits(input)) };
}

export async function buildReport(input: BuildInput): Promise<ReportModel> {
  const { request, timeZone } = input;
  const { kind, units, leftOut } = await reportScope(input);
  const x = textsFor(input.lang);
  const notes: string[] = [];
  if (leftOut) notes.push(leftOut === 1 ? x.t('ReportNote_lockedUnit') : x.t('ReportNote_lockedUnits', { count: leftOut }));
  const base = {
    kind,
    from: request.from,
    to: request.to,
    timeZone,
    lang: input.lang,
    title: x.t(`ReportTitle_${kind}`),
    subtitle: x.t(units.length === 1 ? 'ReportSubtitleOne' : 'ReportSubtitle', { from: request.from, to: request.to, units: units.length, zone: timeZone }),
    generatedAt: isoInZone(input.now.getTime(), timeZone),
  };
  switch (kind) {
    case 'tripLog': {
      const built = await buildTripLog(units, input, x);
      const sum = (key: string) => Math.round(built.reduce((n, u) => n + Number(u.totals[key] ?? 0), 0) * 1000) / 1000;
      return {
        ...base,
        layout: 'units',
        columns: tripLogColumns(x),
        units: built,
        totals: { trips: sum('trips'), distance: sum('distance'), businessDistance: sum('businessDistance'), privateDistance: sum('privateDistance'), otherDistance: sum('otherDistance'), startOdometer: null, stopOdometer: null },
        charts: [],
        notes,
      };
    }
    case 'summary':
    case 'largeSummary': {
      const by = kind === 'summary' ? (request.by ?? 'unit') : 'unit';
      const sections = await summarySections(units, input, by, x);
      const missing = figuresMissingOf(sections);
      if (missing) notes.push(x.t('ReportNote_figuresMissing', { count: missing }));
      const iso = (ms: number) => isoInZone(ms, timeZone);
      return {
        ...base,
        layout: 'overview',
        columns: kind === 'summary' ? summaryColumns(x, by) : largeSummaryColumns(x),
        units: kind === 'summary' ? summaryUnits(sections, by) : largeSummaryUnits(sections, request.groupBy ?? 'month', iso),
        totals: fleetTotals(sections),
        charts: [distanceChart(sections, request.from, request.to, x)],
        notes,
      };
    }
    case 'benefitValue': {
      const built = await buildBenefit(units, input, x);
      const sum = (key: string) => Math.round(built.units.reduce((n, u) => n + Number(u.totals[key] ?? 0), 0) * 1000) / 1000;
      return {
        ...base,
        layout: 'units',
        columns: benefitColumns(x),
        units: built.units,
        totals: { privateTrips: sum('privateTrips'), privateOccasions: sum('privateOccasions'), privateDistance: sum('privateDistance'), businessDistance: sum('businessDistance') },
        charts: benefitCharts(built.years, x),
        notes: [...notes, ...benefitNotes(request.from, request.to, x)],
      };
    }
    case 'fuelConsumption': {
      const [fuelUnits, prices] = await Promise.all([fuelUnitsOf(units, input, request.from, request.to), fuelPricesOf(input.caller.accountId)]);
      const names = await namesOf(input.caller.accountId, fuelUnits.flatMap((u) => u.shares.map((s) => s.driverId)));
      const built = fuelConsumptionUnits(fuelUnits, prices, names, x);
      return {
        ...base,
        layout: 'overview',
        columns: fuelConsumptionColumns(fuelUnits, x),
        units: built.units,
        totals: fuelConsumptionTotals(built.sums),
        charts: [],
        notes: [...notes, ...fuelConsumptionNotes(fuelUnits, prices, request.from, request.to, x)],
      };
    }
    case 'environmental': {
      const previous = previousPeriod(request.from, request.to);
      const [fuelUnits, before] = await Promise.all([fuelUnitsOf(units, input, request.from, request.to), driveSharesOf(units, input, previous.from, previous.to, false)]);
      const built = environmentalReport(
        fuelUnits.map((u, i) => ({ ...u, previousShares: before[i]?.shares ?? [] })),
        request.from,
        request.to,
        x,
      );
      const missing = fuelUnits.reduce((n, u) => n + u.figuresMissing, 0);
      if (missing) notes.push(x.t('ReportNote_figuresMissing', { count: missing }));
      return { ...base, layout: 'overview', columns: environmentalColumns(fuelUnits, x), units: built.units, totals: built.totals, charts: [built.chart], notes: [...notes, ...built.notes] };
    }
    case 'ecoDriving': {
      const by = request.by ?? 'unit';
      const [sections, weights] = await Promise.all([ecoSections(units, input, by, x), ecoWeightsOf(input.caller.accountId)]);
      const iso = (ms: number) => isoInZone(ms, timeZone);
      return {
        ...base,
        layout: 'overview',
        columns: ecoColumns(x, by),
        units: ecoUnits(sections, by, weights, x, iso),
        totals: ecoFleetTotals(sections, weights),
        charts: [],
        notes: [...notes, ...ecoNotes(weights, units.filter((u) => u.overspeedKmh === undefined).length, x)],
      };
    }
    case 'theft': {
      const built = await buildTheft(units, input, x);
      return {
        ...base,
        layout: 'units',
        columns: theftColumns(x),
        units: built,
        totals: { positions: built.reduce((n, u) => n + Number(u.totals['positions']), 0), events: built.reduce((n, u) => n + Number(u.totals['events']), 0) },
        charts: [],
        notes,
      };
    }
    case 'congestion': {
      const built = await buildCongestion(units, input, x);
      return {
        ...base,
        layout: 'units',
        columns: congestionColumns(x),
        units: built,
        totals: congestionTotals(built),
        charts: [],
        notes: [...notes, x.t('ReportNote_congestionEstimate')],
      };
    }
  }
}
