/**
 * The driving figures every summary-like report adds up: trips and distance by type, driving and
 * idle time, the top speed, the first start and last stop, the odometer at both ends. One reducer
 * for one trip and one for two sums, so a day rollup, a month and a whole fleet are the same sum.
 */
import type { TripType } from '../../shared/schemas/trips';

export interface Figures {
  trips: number;
  distanceM: number;
  byType: Record<TripType, { trips: number; distanceM: number }>;
  movingS: number;
  idleS: number;
  /** Trips without driving and idle time (detected before they were kept). */
  figuresMissing: number;
  maxSpeedKmh: number | null;
  firstStartTs: number | null;
  lastStopTs: number | null;
  /** Odometer (km) at the first start and at the last stop, when known. */
  startOdometer: number | null;
  stopOdometer: number | null;
}

export interface FigureTrip {
  startTs: number;
  stopTs: number;
  type: TripType;
  distanceM: number;
  movingS?: number | undefined;
  idleS?: number | undefined;
  maxSpeedKmh?: number | undefined;
  startOdometer: number | null;
  stopOdometer: number | null;
}

export function emptyFigures(): Figures {
  return {
    trips: 0,
    distanceM: 0,
    byType: { business: { trips: 0, distanceM: 0 }, private: { trips: 0, distanceM: 0 }, other: { trips: 0, distanceM: 0 } },
    movingS: 0,
    idleS: 0,
    figuresMissing: 0,
    maxSpeedKmh: null,
    firstStartTs: null,
    lastStopTs: null,
    startOdometer: null,
    stopOdometer: null,
  };
}

const maxOf = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b));

/** `a` and `b` together; the earlier one's start and the later one's stop (odometers with them). */
export function addFigures(a: Figures, b: Figures): Figures {
  const aFirst = a.firstStartTs !== null && (b.firstStartTs === null || a.firstStartTs <= b.firstStartTs);
  const aLast = a.lastStopTs !== null && (b.lastStopTs === null || a.lastStopTs >= b.lastStopTs);
  const byType = { ...a.byType };
  for (const type of Object.keys(byType) as TripType[]) {
    byType[type] = { trips: a.byType[type].trips + b.byType[type].trips, distanceM: a.byType[type].distanceM + b.byType[type].distanceM };
  }
  return {
    trips: a.trips + b.trips,
    distanceM: a.distanceM + b.distanceM,
    byType,
    movingS: a.movingS + b.movingS,
    idleS: a.idleS + b.idleS,
    figuresMissing: a.figuresMissing + b.figuresMissing,
    maxSpeedKmh: maxOf(a.maxSpeedKmh, b.maxSpeedKmh),
    firstStartTs: aFirst ? a.firstStartTs : b.firstStartTs,
    lastStopTs: aLast ? a.lastStopTs : b.lastStopTs,
    startOdometer: aFirst ? a.startOdometer : b.startOdometer,
    stopOdometer: aLast ? a.stopOdometer : b.stopOdometer,
  };
}

export function tripFigures(trip: FigureTrip): Figures {
  const figures = emptyFigures();
  figures.trips = 1;
  figures.distanceM = trip.distanceM;
  figures.byType[trip.type] = { trips: 1, distanceM: trip.distanceM };
  if (trip.movingS === undefined || trip.idleS === undefined) figures.figuresMissing = 1;
  else {
    figures.movingS = trip.movingS;
    figures.idleS = trip.idleS;
  }
  figures.maxSpeedKmh = trip.maxSpeedKmh ?? null;
  figures.firstStartTs = trip.startTs;
  figures.lastStopTs = trip.stopTs;
  figures.startOdometer = trip.startOdometer;
  figures.stopOdometer = trip.stopOdometer;
  return figures;
}

export const sumFigures = (list: Iterable<Figures>): Figures => [...list].reduce(addFigures, emptyFigures());

/** km with 3 decimals, as the API answers distances. */
export const kmOf = (metres: number): number => Math.round(metres) / 1000;

/** The contract's summary totals of a sum. */
export function summaryTotals(f: Figures): Record<string, number | null> {
  return {
    trips: f.trips,
    distance: kmOf(f.distanceM),
    businessDistance: kmOf(f.byType.business.distanceM),
    privateDistance: kmOf(f.byType.private.distanceM),
    otherDistance: kmOf(f.byType.other.distanceM),
    drivingSeconds: Math.round(f.movingS),
    idleSeconds: Math.round(f.idleS),
    maxSpeed: f.maxSpeedKmh === null ? null : Math.round(f.maxSpeedKmh),
    startOdometer: f.startOdometer === null ? null : Math.round(f.startOdometer),
    stopOdometer: f.stopOdometer === null ? null : Math.round(f.stopOdometer),
  };
}
