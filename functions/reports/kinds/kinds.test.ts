import { describe, expect, it } from 'vitest';
import type { Trip } from '../../../shared/schemas/trips';
import { textsFor } from '../columns';
import { emptyFigures, tripFigures } from '../figures';
import { benefitNotes, benefitUnit, verdictOf } from './benefit-value';
import { bucketOf, distanceChart, distancesOf, isoWeekOf, largeSummaryUnits, splitByMonths } from './summary';
import { maySeePlaces, tripLogUnit } from './trip-log';
import { ecoUnits, type EcoSection } from './eco-driving';
import { DEFAULT_ECO_WEIGHTS } from '../../../shared/eco';

const en = textsFor('en');
const sv = textsFor('sv');

function trip(over: Partial<Trip>): Trip {
  return {
    id: 'x',
    imei: '350000000000001',
    startTime: '2026-03-02T08:00:00.000+01:00',
    stopTime: '2026-03-02T08:20:00.000+01:00',
    startAddress: 'Storgatan 1, Stockholm',
    stopAddress: 'Kungsgatan 2, Stockholm',
    startLat: 59.33,
    startLon: 18.06,
    stopLat: 59.34,
    stopLon: 18.07,
    startOdometer: 1000,
    stopOdometer: 1012,
    distance: 12,
    type: 'business',
    purpose: null,
    note: null,
    driverId: null,
    driverName: null,
    passengers: null,
    project: null,
    merged: false,
    attested: false,
    ...over,
  };
}

describe('trip log', () => {
  const names = new Map([
    ['u-driver', 'Dana Driver'],
    ['u-admin', 'Ada Admin'],
  ]);
  const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');
  const privateTrip = trip({ type: 'private', driverId: 'u-driver', startTime: '2026-03-02T17:00:00.000+01:00', startOdometer: 1012, stopOdometer: 1020, distance: 8 });
  const unit = { imei: '350000000000001', name: 'Bil', registrationNumber: 'ABC 123', attestations: [], trips: [{ view: trip({}), changes: [] }, { view: privateTrip, changes: [{ at: Date.UTC(2026, 2, 3), by: 'u-admin', field: 'type' as const, from: 'business', to: 'private' }] }] };

  it("hides a private trip's places from everyone but its driver and administrators", () => {
    const viewer = (userId: string, isAdmin = false) => ({ userId, isAdmin, isSupport: false });
    expect(maySeePlaces(privateTrip, viewer('u-other'))).toBe(false);
    expect(maySeePlaces(privateTrip, viewer('u-driver'))).toBe(true);
    expect(maySeePlaces(privateTrip, viewer('u-other', true))).toBe(true);
    expect(maySeePlaces(trip({}), viewer('u-other'))).toBe(true);

    const seenByOther = tripLogUnit(unit, { viewer: viewer('u-other'), names, iso }, en);
    expect(seenByOther.rows[1]).toMatchObject({ startAddress: null, stopAddress: null, startLat: null, stopLon: null, typeLabel: 'Private' });
    expect(seenByOther.rows[0]).toMatchObject({ startAddress: 'Storgatan 1, Stockholm' });
    expect(seenByOther.notes).toContain(en.t('ReportNote_privateHidden'));
    const seenByDriver = tripLogUnit(unit, { viewer: viewer('u-driver'), names, iso }, en);
    expect(seenByDriver.rows[1]).toMatchObject({ startAddress: 'Storgatan 1, Stockholm' });
    expect(seenByDriver.notes).not.toContain(en.t('ReportNote_privateHidden'));
  });

  it('lists the changes with translated fields and values, and reconciles the odometer', () => {
    const model = tripLogUnit(unit, { viewer: { userId: 'u-admin', isAdmin: true, isSupport: false }, names, iso }, sv);
    expect(model.tables.find((t) => t.key === 'changes')?.rows).toEqual([
      { date: '2026-03-02', startTime: '2026-03-02T17:00:00.000+01:00', changedAt: '2026-03-03T00:00:00.000+00:00', changedBy: 'Ada Admin', field: 'Typ', oldValue: 'Tjänst', newValue: 'Privat' },
    ]);
    expect(model.totals).toEqual({ trips: 2, distance: 20, businessDistance: 12, privateDistance: 8, otherDistance: 0, startOdometer: 1000, stopOdometer: 1020 });
    expect(model.facts.find((f) => f.key === 'odometerGap')).toMatchObject({ value: 0, tone: null });
    expect(model.tables.find((t) => t.key === 'gaps')).toBeUndefined();
  });
});

describe('benefit value', () => {
  it('holds minor private use at 10 occasions and 1,000 km, warns from 8 or 800, and is over past either', () => {
    expect(verdictOf(7, 799.999)).toBe('ok');
    expect(verdictOf(8, 0)).toBe('near');
    expect(verdictOf(0, 800)).toBe('near');
    expect(verdictOf(10, 1000)).toBe('near');
    expect(verdictOf(11, 0)).toBe('over');
    expect(verdictOf(0, 1000.001)).toBe('over');
  });

  it('counts occasions as distinct private days per calendar year and driver', () => {
    const trips = [
      { day: '2025-12-31', type: 'private' as const, distanceM: 5_000, driverId: 'd1' },
      { day: '2026-01-02', type: 'private' as const, distanceM: 3_000, driverId: 'd1' },
      { day: '2026-01-02', type: 'private' as const, distanceM: 2_000, driverId: 'd1' },
      { day: '2026-01-03', type: 'private' as const, distanceM: 1_000, driverId: null },
      { day: '2026-01-03', type: 'business' as const, distanceM: 40_000, driverId: 'd1' },
    ];
    const { unit, years } = benefitUnit({ imei: 'i', name: 'Bil', registrationNumber: null, trips }, new Map([['d1', 'Dana']]), en);
    expect(unit.rows.map((r) => [r['year'], r['driverName'], r['privateTrips'], r['privateOccasions'], r['privateDistance'], r['businessDistance']])).toEqual([
      ['2025', 'Dana', 1, 1, 5, 0],
      ['2026', 'Dana', 2, 1, 5, 40],
      ['2026', 'No driver', 1, 1, 1, 0],
    ]);
    expect(years).toEqual([
      { year: '2025', privateKm: 5, occasions: 1 },
      { year: '2026', privateKm: 6, occasions: 2 },
    ]);
    expect(unit.totals).toEqual({ privateTrips: 4, privateOccasions: 3, privateDistance: 11, businessDistance: 40 });
    expect(benefitNotes('2025-12-01', '2026-01-31', en).slice(1)).toEqual([
      en.t('ReportNote_partialYear', { year: 2025, from: '2025-12-01', to: '2025-12-31' }),
      en.t('ReportNote_partialYear', { year: 2026, from: '2026-01-01', to: '2026-01-31' }),
    ]);
  });
});

describe('summaries', () => {
  it('reads whole calendar months as months and the days around them as days', () => {
    expect(splitByMonths('2026-10-01', '2026-10-31')).toEqual({ months: ['2026-10'], dayRanges: [] });
    expect(splitByMonths('2025-12-15', '2026-03-10')).toEqual({ months: ['2026-01', '2026-02'], dayRanges: [['2025-12-15', '2025-12-31'], ['2026-03-01', '2026-03-10']] });
    expect(splitByMonths('2026-02-02', '2026-02-27')).toEqual({ months: [], dayRanges: [['2026-02-02', '2026-02-27']] });
    expect(splitByMonths('2024-02-01', '2024-02-29')).toEqual({ months: ['2024-02'], dayRanges: [] });
  });

  it('groups days into ISO weeks from Monday and months', () => {
    expect(isoWeekOf('2026-01-01')).toBe('2026-W01');
    expect(isoWeekOf('2027-01-01')).toBe('2026-W53');
    expect(isoWeekOf('2026-11-30')).toBe('2026-W49');
    expect(bucketOf('2026-11-29', 'week')).toBe('2026-W48');
    expect(bucketOf('2026-11-29', 'month')).toBe('2026-11');
  });

  it('sums a bucket: first start, last stop and their odometers, the top speed; a chart with the same figures', () => {
    const f = (startTs: number, km: number, odo: number, type: 'business' | 'private') =>
      tripFigures({ startTs, stopTs: startTs + 600_000, type, distanceM: km * 1000, movingS: 500, idleS: 20, maxSpeedKmh: km * 10, startOdometer: odo, stopOdometer: odo + km });
    const days = new Map([
      ['2026-03-02', f(Date.UTC(2026, 2, 2, 7), 12, 1000, 'business')],
      ['2026-03-03', f(Date.UTC(2026, 2, 3, 7), 8, 1012, 'private')],
    ]);
    const [unit] = largeSummaryUnits([{ id: 'i', name: 'Bil', registrationNumber: 'ABC 123', days, distances: distancesOf(days) }], 'week', (ms) => new Date(ms).toISOString());
    expect(unit?.rows).toEqual([
      expect.objectContaining({ period: '2026-W10', trips: 2, distance: 20, businessDistance: 12, privateDistance: 8, drivingSeconds: 1000, idleSeconds: 40, maxSpeed: 120, startOdometer: 1000, stopOdometer: 1020, firstStart: '2026-03-02T07:00:00.000Z', lastStop: '2026-03-03T07:10:00.000Z' }),
    ]);
    const chart = distanceChart([{ id: 'i', name: 'Bil', registrationNumber: null, days, distances: distancesOf(days) }], '2026-03-01', '2026-03-03', en);
    expect(chart.labels).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    expect(chart.series.map((s) => s.values)).toEqual([[0, 12, 0], [0, 0, 8], [0, 0, 0]]);
    expect(emptyFigures().maxSpeedKmh).toBeNull();
  });
});

describe('eco driving', () => {
  const T = Date.parse('2026-03-02T08:00:00+01:00');
  const iso = (ms: number) => new Date(ms).toISOString();
  const ecoTrip = (startTs: number, km: number, brakings: number) => ({
    startTs,
    stopTs: startTs + 1_800_000,
    day: iso(startTs).slice(0, 10),
    figures: { distanceM: km * 1000, movingS: 1800, idleS: 0, harshAccelerations: 0, harshBrakings: brakings, harshCornerings: 0, overspeedS: 0 },
    unitName: 'Van',
    driverName: 'Ada',
  });
  const section: EcoSection = {
    id: 'd1',
    name: 'Ada',
    registrationNumber: null,
    // 25 km with 1 braking: 4 per 100 km, 8 points: 92. 30 km with 3: 10 per 100 km: 80. 5 km: no score.
    trips: [ecoTrip(T, 25, 1), ecoTrip(T + 86_400_000, 30, 3), ecoTrip(T + 7 * 86_400_000, 5, 0)],
    events: [{ type: 'harshBraking', ts: T + 60_000, lat: 59.3, lon: 18.1, details: { g: 0.456, ms: 300, speed: 50 } }],
    eventsCapped: true,
  };

  it('gives a driver row, the weeks, the worst trips with their unit, and the events with their value in the language', () => {
    const [unit] = ecoUnits([section], 'driver', DEFAULT_ECO_WEIGHTS, sv, iso);
    // 60 km, 4 brakings: 6.67 per 100 km, 13.33 points: 86.67, 87.
    expect(unit?.rows).toEqual([expect.objectContaining({ driverId: 'd1', driverName: 'Ada', distance: 60, score: 87, harshBrakings: 4, brakingsPer100Km: 6.7 })]);
    expect(unit?.tables.find((t) => t.key === 'weeks')?.rows.map((r) => [r['week'], r['distance'], r['score']])).toEqual([
      ['2026-W10', 55, 85],
      ['2026-W11', 5, null],
    ]);
    expect(unit?.tables.find((t) => t.key === 'worstTrips')?.rows.map((r) => [r['distance'], r['score'], r['unitName']])).toEqual([
      [30, 80, 'Van'],
      [25, 92, 'Van'],
    ]);
    expect(unit?.tables.find((t) => t.key === 'ecoEvents')?.rows).toEqual([
      { time: iso(T + 60_000), type: 'harshBraking', event: 'Hård inbromsning', value: '0,46 g', lat: 59.3, lon: 18.1 },
    ]);
    expect(unit?.notes).toEqual(['Ada: de första 1 händelserna listas; alla räknas.']);
  });
});
