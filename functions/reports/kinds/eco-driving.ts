/**
 * The eco driving report, a pure function of the units' (or drivers') trips with their eco counts
 * and the eco events recorded in the period (shared/eco.ts, docs/decisions/0041-eco-score.md).
 * One row per unit or driver: distance, score and what it is made of (harsh events by kind and
 * per 100 km, time over the speed limit and its share of driving, idling and its share of engine
 * time); below, per section, the score per ISO week, the trips with the lowest scores and the
 * events with their time, value and position (for a map).
 *
 * A trip's counts are the harsh events inside it and the seconds of overspeed episodes that
 * overlap it; events outside any trip are listed but do not count. Under ECO_SCORE_MIN_KM a
 * section, week or trip has no score (null).
 */
import { addEcoFigures, ECO_SCORE_MIN_KM, ecoBreakdown, emptyEcoFigures, type EcoEvent, type EcoFigures, type EcoWeights } from '../../../shared/eco';
import { formatDuration, formatNumber } from '../../../shared/reports/format';
import type { CellValue, ReportColumn, ReportTable, ReportUnit } from '../../../shared/schemas/reports';
import type { Texts } from '../columns';
import { kmOf } from '../figures';
import { isoWeekOf } from './summary';

/** A trip as the report counts it: its times and distance, its eco counts, its unit and driver. */
export interface EcoTrip {
  startTs: number;
  stopTs: number;
  /** Local day of the start (yyyy-MM-dd): its ISO week is the trend's. */
  day: string;
  figures: EcoFigures;
  unitName: string;
  driverName: string;
}

export interface EcoSection {
  /** The unit's IMEI, or the driver's user id ('' for trips without a driver). */
  id: string;
  name: string;
  registrationNumber: string | null;
  trips: readonly EcoTrip[];
  events: readonly EcoEvent[];
  /** More events were recorded than listed. */
  eventsCapped: boolean;
}

/** Trips listed as a section's worst. */
export const WORST_TRIPS = 5;

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The contract's totals and the breakdown of a sum of figures. */
export function ecoTotals(f: EcoFigures, weights: EcoWeights): Record<string, CellValue> {
  const b = ecoBreakdown(f, weights);
  return {
    distance: kmOf(f.distanceM),
    score: b.score,
    harshAccelerations: f.harshAccelerations,
    harshBrakings: f.harshBrakings,
    harshCornerings: f.harshCornerings,
    overspeedSeconds: Math.round(f.overspeedS),
    idleSeconds: Math.round(f.idleS),
    accelerationsPer100Km: round1(b.accelerationsPer100Km),
    brakingsPer100Km: round1(b.brakingsPer100Km),
    corneringsPer100Km: round1(b.corneringsPer100Km),
    overspeedPercent: round1(b.overspeedPercent),
    idlePercent: round1(b.idlePercent),
  };
}

const sumTrips = (trips: readonly EcoTrip[]): EcoFigures => trips.reduce((sum, t) => addEcoFigures(sum, t.figures), emptyEcoFigures());
const harshOf = (f: EcoFigures) => f.harshAccelerations + f.harshBrakings + f.harshCornerings;

export function ecoColumns(x: Texts, by: 'unit' | 'driver'): ReportColumn[] {
  const lead = by === 'unit' ? [x.column('unitName', 'text', { label: x.t('ReportCol_unit') }), x.column('registrationNumber', 'text')] : [x.column('driverName', 'text', { label: x.t('ReportCol_driver') })];
  const per100 = { unit: x.t('ReportUnit_per100Km') };
  return [
    ...lead,
    x.column('distance', 'km', { total: true }),
    x.column('score', 'count', { total: true }),
    x.column('harshAccelerations', 'count', { total: true }),
    x.column('accelerationsPer100Km', 'decimal', { total: true, ...per100 }),
    x.column('harshBrakings', 'count', { total: true }),
    x.column('brakingsPer100Km', 'decimal', { total: true, ...per100 }),
    x.column('harshCornerings', 'count', { total: true }),
    x.column('corneringsPer100Km', 'decimal', { total: true, ...per100 }),
    x.column('overspeedSeconds', 'duration', { total: true }),
    x.column('overspeedPercent', 'decimal', { total: true, unit: '%' }),
    x.column('idleSeconds', 'duration', { total: true, label: x.t('ReportCol_idleTime') }),
    x.column('idlePercent', 'decimal', { total: true, unit: '%' }),
  ];
}

function weekTable(section: EcoSection, weights: EcoWeights, x: Texts): ReportTable {
  const weeks = new Map<string, EcoTrip[]>();
  for (const trip of section.trips) {
    const week = isoWeekOf(trip.day);
    weeks.set(week, [...(weeks.get(week) ?? []), trip]);
  }
  return {
    key: 'weeks',
    title: x.t('ReportTable_ecoWeeks'),
    columns: [
      x.column('week', 'text'),
      x.column('trips', 'count'),
      x.column('distance', 'km'),
      x.column('score', 'count'),
      x.column('harshEvents', 'count'),
      x.column('overspeedSeconds', 'duration'),
      x.column('idleSeconds', 'duration', { label: x.t('ReportCol_idleTime') }),
    ],
    rows: [...weeks]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([week, trips]) => {
        const f = sumTrips(trips);
        const totals = ecoTotals(f, weights);
        return { week, trips: trips.length, distance: totals['distance'], score: totals['score'], harshEvents: harshOf(f), overspeedSeconds: totals['overspeedSeconds'], idleSeconds: totals['idleSeconds'] };
      }),
    totals: null,
  };
}

function worstTable(section: EcoSection, by: 'unit' | 'driver', weights: EcoWeights, x: Texts, iso: (ms: number) => string): ReportTable {
  const scored = section.trips
    .map((trip) => ({ trip, breakdown: ecoBreakdown(trip.figures, weights) }))
    .filter((t): t is { trip: EcoTrip; breakdown: ReturnType<typeof ecoBreakdown> & { score: number } } => t.breakdown.score !== null)
    .sort((a, b) => a.breakdown.score - b.breakdown.score || a.trip.startTs - b.trip.startTs)
    .slice(0, WORST_TRIPS);
  const who = by === 'unit' ? x.column('driverName', 'text', { label: x.t('ReportCol_driver') }) : x.column('unitName', 'text', { label: x.t('ReportCol_unit') });
  return {
    key: 'worstTrips',
    title: x.t('ReportTable_ecoWorstTrips', { count: WORST_TRIPS }),
    columns: [
      x.column('start', 'dateTime'),
      x.column('stop', 'dateTime'),
      who,
      x.column('distance', 'km'),
      x.column('score', 'count'),
      x.column('harshEvents', 'count'),
      x.column('overspeedSeconds', 'duration'),
      x.column('idlePercent', 'decimal', { unit: '%' }),
    ],
    rows: scored.map(({ trip, breakdown }) => ({
      start: iso(trip.startTs),
      stop: iso(trip.stopTs),
      unitName: trip.unitName,
      driverName: trip.driverName,
      distance: kmOf(trip.figures.distanceM),
      score: breakdown.score,
      harshEvents: harshOf(trip.figures),
      overspeedSeconds: Math.round(trip.figures.overspeedS),
      idlePercent: round1(breakdown.idlePercent),
    })),
    totals: null,
  };
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** What an event measured, as text: the peak g of a harsh event, the top speed of an episode over the limit, an idling's duration. */
function eventValue(e: EcoEvent, x: Texts): string | null {
  const d = e.details;
  if (e.type === 'overspeedEpisode') {
    const speed = num(d['maxSpeed']);
    return speed === null ? null : `${formatNumber(speed, 0, x.lang)} km/h`;
  }
  if (e.type === 'idling') {
    const seconds = num(d['seconds']);
    return seconds === null ? null : formatDuration(seconds);
  }
  const g = num(d['g']);
  return g === null ? null : `${formatNumber(g, 2, x.lang)} g`;
}

function eventsTable(section: EcoSection, x: Texts, iso: (ms: number) => string): ReportTable {
  return {
    key: 'ecoEvents',
    title: x.t('ReportTable_ecoEvents'),
    columns: [x.column('time', 'dateTime'), x.column('event', 'text'), x.column('value', 'text'), x.column('lat', 'coordinate', { label: 'Lat' }), x.column('lon', 'coordinate', { label: 'Lon' })],
    rows: section.events.map((e) => ({
      time: iso(e.ts),
      type: e.type,
      event: x.t(`EventType${capitalized(e.type)}`),
      value: eventValue(e, x),
      lat: e.lat,
      lon: e.lon,
      ...(typeof e.details['seconds'] === 'number' ? { seconds: e.details['seconds'] } : {}),
    })),
    totals: null,
  };
}

export function ecoUnits(sections: readonly EcoSection[], by: 'unit' | 'driver', weights: EcoWeights, x: Texts, iso: (ms: number) => string): ReportUnit[] {
  return sections.map((section) => {
    const totals = ecoTotals(sumTrips(section.trips), weights);
    const lead = by === 'unit' ? { unitName: section.name, registrationNumber: section.registrationNumber } : { driverId: section.id, driverName: section.name };
    const notes: string[] = [];
    if (section.eventsCapped) notes.push(x.t('ReportNote_ecoEventsCapped', { name: section.name, count: section.events.length }));
    return {
      imei: section.id,
      name: section.name,
      registrationNumber: section.registrationNumber,
      rows: [{ ...lead, ...totals }],
      totals,
      facts: [],
      // A unit that neither drove nor recorded anything has its row only.
      tables: section.trips.length || section.events.length ? [weekTable(section, weights, x), worstTable(section, by, weights, x, iso), eventsTable(section, x, iso)] : [],
      notes,
    };
  });
}

/** Over every section: the sums and the fleet's score. */
export const ecoFleetTotals = (sections: readonly EcoSection[], weights: EcoWeights): Record<string, CellValue> =>
  ecoTotals(sumTrips(sections.flatMap((s) => s.trips)), weights);

/** How the score is made, with the account's weights; which units have no speed limit to count time over. */
export function ecoNotes(weights: EcoWeights, withoutLimit: number, x: Texts): string[] {
  const n = (v: number) => formatNumber(v, Number.isInteger(v) ? 0 : Number.isInteger(v * 10) ? 1 : 2, x.lang);
  return [
    x.t('ReportNote_ecoScoreRule', {
      acceleration: n(weights.acceleration),
      braking: n(weights.braking),
      cornering: n(weights.cornering),
      overspeed: n(weights.overspeed),
      idle: n(weights.idle),
      km: ECO_SCORE_MIN_KM,
    }),
    ...(withoutLimit ? [x.t('ReportNote_ecoNoSpeedLimit', { count: withoutLimit })] : []),
  ];
}
