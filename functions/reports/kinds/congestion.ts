/**
 * The congestion tax report, a pure function of a unit's passages (detected at ingest,
 * functions/congestion/passage-stage.ts) and its trips: each passage priced now by the tariff
 * (shared/congestion/tariff.ts, so a corrected rule re-prices history), with the trip it was
 * driven on (type and driver); private passages listed apart (the driver's to pay); the tax per
 * day after the daily cap and Gothenburg's 60-minute rule, per month and per driver.
 *
 * Pricing takes all of the unit's passages of each tax day: the cap and the 60-minute rule are
 * the vehicle's. A trip type or driver filter then chooses which passages are listed.
 */
import type { CongestionCity } from '../../../shared/congestion/control-points';
import type { Passage } from '../../../shared/congestion/passages';
import { congestionReasonKey } from '../../../shared/congestion/reasons';
import { pricePassages } from '../../../shared/congestion/tariff';
import type { ReportColumn, ReportTable, ReportUnit } from '../../../shared/schemas/reports';
import type { TripType } from '../../../shared/schemas/trips';
import type { Texts } from '../columns';

/** The cities by their own names, as the stations are named. */
export const CITY_NAMES: Record<CongestionCity, string> = { stockholm: 'Stockholm', gothenburg: 'Göteborg' };

export interface CongestionTrip {
  startTs: number;
  stopTs: number;
  type: TripType;
  driverId: string | null;
}

export interface CongestionUnitInput {
  imei: string;
  name: string;
  registrationNumber: string | null;
  /** The unit's passages of the period's tax days, in time order. */
  passages: readonly Passage[];
  /** The unit's trips around the period, in time order. */
  trips: readonly CongestionTrip[];
}

export interface CongestionContext {
  names: ReadonlyMap<string, string>;
  iso: (ms: number) => string;
  /** Only passages on trips of this type or driver are listed (the day amounts stay the vehicle's). */
  type?: TripType | undefined;
  driverId?: string | undefined;
}

const TYPE_LABEL: Record<TripType, string> = { business: 'TripTypeBusiness', private: 'TripTypePrivate', other: 'TripTypeOther' };
const money = (n: number) => Math.round(n * 100) / 100;

export function congestionColumns(x: Texts): ReportColumn[] {
  return [
    x.column('time', 'dateTime'),
    x.column('cityName', 'text', { label: x.t('ReportCol_city') }),
    x.column('station', 'text'),
    x.column('directionLabel', 'text', { label: x.t('ReportCol_direction') }),
    x.column('amount', 'money', { total: true }),
    x.column('reasonLabel', 'text', { label: x.t('ReportCol_reason') }),
    x.column('uncertain', 'yesNo'),
    x.column('typeLabel', 'text', { label: x.t('ReportCol_type') }),
    x.column('driverName', 'text', { label: x.t('ReportCol_driver') }),
  ];
}

/** The trip a passage was driven on: the one whose start and stop hold its time. */
function tripAt(trips: readonly CongestionTrip[], time: number): CongestionTrip | null {
  for (const trip of trips) if (trip.startTs <= time && time <= trip.stopTs) return trip;
  return null;
}

function sumBy<K>(entries: readonly { key: K; amount: number }[]): Map<K, number> {
  const out = new Map<K, number>();
  for (const e of entries) out.set(e.key, money((out.get(e.key) ?? 0) + e.amount));
  return out;
}

export function congestionUnit(input: CongestionUnitInput, context: CongestionContext, x: Texts): ReportUnit {
  const priced = pricePassages(input.passages);
  const rows = priced.passages.map((p) => {
    const trip = tripAt(input.trips, p.time);
    const driverId = trip?.driverId ?? null;
    return {
      time: context.iso(p.time),
      city: p.city,
      cityName: CITY_NAMES[p.city],
      station: p.station,
      stationId: p.stationId,
      direction: p.direction,
      directionLabel: x.t(`CongestionDirection_${p.direction}`),
      amount: p.amount,
      reason: p.reason ?? null,
      reasonLabel: p.reason ? x.t(congestionReasonKey(p.reason)) : null,
      uncertain: p.uncertain,
      tripType: trip?.type ?? null,
      typeLabel: trip ? x.t(TYPE_LABEL[trip.type]) : null,
      driverId,
      driverName: driverId ? (context.names.get(driverId) ?? null) : null,
      date: p.date,
    };
  });
  const listed = rows.filter((r) => (!context.type || r.tripType === context.type) && (!context.driverId || r.driverId === context.driverId));
  const own = listed.filter((r) => r.tripType !== 'private');
  const privately = listed.filter((r) => r.tripType === 'private');
  const sum = (list: readonly { amount: number }[]) => money(list.reduce((n, r) => n + r.amount, 0));
  // A crossing seen at a second station is listed, not counted again.
  const passages = listed.filter((r) => r.reason !== 'same-crossing').length;
  const amount = sum(own);
  const privateAmount = sum(privately);

  // The API's days: per date, the cities' day amounts after their caps added.
  const days = [...sumBy(priced.days.map((d) => ({ key: d.date, amount: d.amount })))].map(([date, dayAmount]) => ({ date, amount: dayAmount }));
  const months = [...sumBy(priced.days.map((d) => ({ key: d.date.slice(0, 7), amount: d.amount })))].map(([month, monthAmount]) => ({ month, amount: monthAmount }));
  const drivers = [...sumBy(listed.map((r) => ({ key: r.driverId ?? '', amount: r.amount })))].map(([driverId, driverAmount]) => ({
    driverName: driverId ? (context.names.get(driverId) ?? driverId) : x.t('ReportNote_driverUnknown'),
    amount: driverAmount,
  }));

  const amountColumn = x.column('amount', 'money', { total: true });
  const tables: ReportTable[] = [];
  if (privately.length) {
    tables.push({ key: 'privatePassages', title: x.t('ReportTable_privatePassages'), columns: congestionColumns(x), rows: privately, totals: { amount: privateAmount } });
  }
  // A unit without passages: its facts say 0, empty tables would say nothing more.
  if (rows.length) {
    tables.push(
      {
        key: 'days',
        title: x.t('ReportTable_congestionDays'),
        columns: [x.column('date', 'day'), x.column('cityName', 'text', { label: x.t('ReportCol_city') }), amountColumn],
        rows: priced.days.map((d) => ({ date: d.date, city: d.city, cityName: CITY_NAMES[d.city], amount: d.amount })),
        totals: { amount: priced.total },
      },
      { key: 'months', title: x.t('ReportTable_congestionMonths'), columns: [x.column('month', 'text'), amountColumn], rows: months, totals: { amount: priced.total } },
      { key: 'drivers', title: x.t('ReportTable_congestionDrivers'), columns: [x.column('driverName', 'text', { label: x.t('ReportCol_driver') }), amountColumn], rows: drivers, totals: null },
    );
  }

  const notes: string[] = [];
  if (listed.some((r) => r.uncertain)) notes.push(x.t('ReportNote_congestionUncertain'));
  if (listed.some((r) => r.reason === 'same-crossing')) notes.push(x.t('ReportNote_congestionSameCrossing'));
  if (privately.length) notes.push(x.t('ReportNote_congestionPrivate'));
  if (context.type || context.driverId) notes.push(x.t('ReportNote_congestionFiltered'));
  return {
    imei: input.imei,
    name: input.name,
    registrationNumber: input.registrationNumber,
    rows: own,
    totals: { amount, privateAmount, total: priced.total, passages },
    facts: [x.fact('congestionTotal', priced.total, 'money'), x.fact('congestionPrivate', privateAmount, 'money'), x.fact('congestionPassages', passages, 'count')],
    tables,
    notes,
    details: {
      passages: listed.map((r) => ({ time: r.time, city: r.city, station: r.station, amount: r.amount })),
      days,
      total: priced.total,
    },
  };
}

/** Over all units: the amounts listed, the private ones and the tax. */
export function congestionTotals(units: readonly ReportUnit[]): Record<string, number> {
  const sum = (key: string) => money(units.reduce((n, u) => n + Number(u.totals[key] ?? 0), 0));
  return { amount: sum('amount'), privateAmount: sum('privateAmount'), total: sum('total'), passages: sum('passages') };
}
