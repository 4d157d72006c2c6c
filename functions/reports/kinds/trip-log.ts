/**
 * The trip log (körjournal) report, a pure function of its inputs: per unit every trip with the
 * fields the tax office expects, totals per type, the odometer reconciliation (stop minus start
 * against the sum of the trips; a gap is shown), the attestations and who made them, and every
 * change made to a trip after detection. A private trip's addresses and places are blank for
 * anyone but its driver and administrators.
 */
import type { ReportColumn, ReportFact, ReportTable, ReportUnit } from '../../../shared/schemas/reports';
import type { Trip, TripType } from '../../../shared/schemas/trips';
import type { Texts } from '../columns';
import { formatNumber } from '../../../shared/reports/format';
import { kmOf } from '../figures';
import type { TripChange } from '../../trips/trip-item';


export interface TripLogAttestation {
  fromDay: string;
  toDay: string;
  status: 'attested' | 'approved' | 'unlocked';
  userId: string;
  attestedAt: number;
}

export interface TripLogUnitInput {
  imei: string;
  name: string;
  registrationNumber: string | null;
  /** The unit's trips in the period as the API answers them (odometers corrected, driver named), in time order. */
  trips: readonly { view: Trip; changes: readonly TripChange[] }[];
  attestations: readonly TripLogAttestation[];
}

export interface TripLogInput {
  viewer: { userId: string; isAdmin: boolean; isSupport: boolean };
  /** Names by user id: drivers, attesters, editors. */
  names: ReadonlyMap<string, string>;
  /** ISO date-time with the report zone's offset, for an instant. */
  iso: (ms: number) => string;
}

/** An odometer that moved this much more (km) than the trips between two readings is a gap worth showing. */
export const ODOMETER_GAP_KM = 0.5;

const TYPE_LABEL: Record<TripType, string> = { business: 'TripTypeBusiness', private: 'TripTypePrivate', other: 'TripTypeOther' };

export function tripLogColumns(x: Texts): ReportColumn[] {
  return [
    x.column('date', 'day'),
    x.column('startTime', 'time', { label: x.t('ReportCol_start') }),
    x.column('stopTime', 'time', { label: x.t('ReportCol_stop') }),
    x.column('startAddress', 'text'),
    x.column('stopAddress', 'text'),
    x.column('startOdometer', 'odometer'),
    x.column('stopOdometer', 'odometer'),
    x.column('distance', 'km', { total: true }),
    x.column('typeLabel', 'text', { label: x.t('ReportCol_type') }),
    x.column('purpose', 'text'),
    x.column('driverName', 'text', { label: x.t('ReportCol_driver') }),
    x.column('project', 'text'),
    x.column('note', 'text'),
  ];
}

const round3 = (km: number) => Math.round(km * 1000) / 1000;

/** A merge's or split's span (`<start>/<stop>`, ISO UTC) as local date and times. */
function spanText(value: string, iso: (ms: number) => string): string {
  const [start = '', stop = ''] = value.split('/').map((t) => iso(Date.parse(t)));
  return `${start.slice(0, 10)} ${start.slice(11, 16)}–${stop.slice(11, 16)}`;
}

function changeValue(change: TripChange, value: string | null, x: Texts, input: TripLogInput): string | null {
  const names = input.names;
  if (value === null) return null;
  if (change.field === 'merged' || change.field === 'split') return spanText(value, input.iso);
  if (change.field === 'type' && value in TYPE_LABEL) return x.t(TYPE_LABEL[value as TripType]);
  if (change.field === 'driverId') return names.get(value) ?? value;
  return value;
}

function changesTable(unit: TripLogUnitInput, input: TripLogInput, x: Texts): ReportTable | null {
  const rows = unit.trips.flatMap(({ view, changes }) =>
    changes.map((c) => ({
      date: view.startTime.slice(0, 10),
      startTime: view.startTime,
      changedAt: input.iso(c.at),
      changedBy: input.names.get(c.by) ?? c.by,
      field: x.t(`ReportField_${c.field}`),
      oldValue: changeValue(c, c.from, x, input),
      newValue: changeValue(c, c.to, x, input),
    })),
  );
  if (!rows.length) return null;
  return {
    key: 'changes',
    title: x.t('ReportTable_changes'),
    columns: [
      x.column('date', 'day'),
      x.column('startTime', 'time', { label: x.t('ReportCol_start') }),
      x.column('changedAt', 'dateTime'),
      x.column('changedBy', 'text'),
      x.column('field', 'text'),
      x.column('oldValue', 'text'),
      x.column('newValue', 'text'),
    ],
    rows,
    totals: null,
  };
}

/** Pairs of consecutive trips whose odometers do not meet: the vehicle moved without a trip, or a reading was corrected. */
function gapsTable(trips: readonly Trip[], x: Texts): ReportTable | null {
  const rows: Record<string, unknown>[] = [];
  for (let i = 1; i < trips.length; i++) {
    const before = trips[i - 1] as Trip;
    const after = trips[i] as Trip;
    if (before.stopOdometer === null || after.startOdometer === null) continue;
    const gap = round3(after.startOdometer - before.stopOdometer);
    if (Math.abs(gap) >= ODOMETER_GAP_KM) rows.push({ after: before.stopTime, stopOdometer: before.stopOdometer, startOdometer: after.startOdometer, gap });
  }
  if (!rows.length) return null;
  return {
    key: 'gaps',
    title: x.t('ReportTable_gaps'),
    columns: [x.column('after', 'dateTime'), x.column('stopOdometer', 'odometer'), x.column('startOdometer', 'odometer'), x.column('gap', 'km', { total: true })],
    rows,
    totals: { gap: round3(rows.reduce((sum, r) => sum + (r['gap'] as number), 0)) },
  };
}

function attestationFacts(unit: TripLogUnitInput, input: TripLogInput, x: Texts): ReportFact[] {
  const total = unit.trips.length;
  const attested = unit.trips.filter((t) => t.view.attested).length;
  const held = unit.attestations.filter((a) => a.status !== 'unlocked');
  const lines = held.map((a) =>
    x.t('ReportFact_attestedBy', { from: a.fromDay, to: a.toDay, name: input.names.get(a.userId) ?? a.userId, day: input.iso(a.attestedAt).slice(0, 10) }),
  );
  if (total > 0 && attested < total) {
    lines.push(attested === 0 ? x.t('ReportFact_notAttested') : x.t('ReportFact_partlyAttested', { trips: attested, total }));
  }
  if (!lines.length) lines.push(x.t('ReportFact_notAttested'));
  const tone = total > 0 && attested < total ? 'warning' : null;
  return [x.fact('attestation', lines.join('; '), 'text', tone)];
}

/** Whether the viewer may see where a trip went: not a private trip of someone else, unless an administrator. */
export function maySeePlaces(trip: Pick<Trip, 'type' | 'driverId'>, viewer: TripLogInput['viewer']): boolean {
  return trip.type !== 'private' || viewer.isAdmin || viewer.isSupport || trip.driverId === viewer.userId;
}

const HIDDEN_PLACES = { startAddress: null, stopAddress: null, startLat: null, startLon: null, stopLat: null, stopLon: null } as const;

export function tripLogUnit(unit: TripLogUnitInput, input: TripLogInput, x: Texts): ReportUnit {
  const views = unit.trips.map((t) => t.view);
  const rows = views.map((trip) => ({
    ...trip,
    ...(maySeePlaces(trip, input.viewer) ? {} : HIDDEN_PLACES),
    date: trip.startTime.slice(0, 10),
    typeLabel: x.t(TYPE_LABEL[trip.type]),
  }));
  const metres: Record<TripType, number> = { business: 0, private: 0, other: 0 };
  let totalM = 0;
  for (const trip of views) {
    // Each trip's km has 3 decimals; summing metres keeps the total exact.
    const m = Math.round(trip.distance * 1000);
    metres[trip.type] += m;
    totalM += m;
  }
  const first = views[0];
  const last = views[views.length - 1];
  const startOdometer = first?.startOdometer ?? null;
  const stopOdometer = last?.stopOdometer ?? null;
  const facts: ReportFact[] = [];
  const notes: string[] = [];
  if (startOdometer !== null && stopOdometer !== null) {
    const difference = round3(stopOdometer - startOdometer);
    const gap = round3(difference - kmOf(totalM));
    facts.push(
      x.fact('startOdometer', startOdometer, 'odometer'),
      x.fact('stopOdometer', stopOdometer, 'odometer'),
      x.fact('odometerDifference', difference, 'km'),
      x.fact('tripsDistance', kmOf(totalM), 'km'),
      x.fact('odometerGap', gap, 'km', Math.abs(gap) >= ODOMETER_GAP_KM ? 'alert' : null),
    );
    if (Math.abs(gap) >= ODOMETER_GAP_KM) notes.push(x.t('ReportNote_odometerGap', { km: formatNumber(gap, 1, x.lang) }));
  }
  facts.push(...attestationFacts(unit, input, x));
  if (!views.length) notes.push(x.t('ReportNote_noTrips'));
  if (rows.some((r, i) => r.startAddress === null && views[i]?.startAddress !== null)) notes.push(x.t('ReportNote_privateHidden'));
  const tables = [gapsTable(views, x), changesTable(unit, input, x)].filter((t): t is ReportTable => t !== null);
  return {
    imei: unit.imei,
    name: unit.name,
    registrationNumber: unit.registrationNumber,
    rows,
    totals: {
      trips: views.length,
      distance: kmOf(totalM),
      businessDistance: kmOf(metres.business),
      privateDistance: kmOf(metres.private),
      otherDistance: kmOf(metres.other),
      startOdometer,
      stopOdometer,
    },
    facts,
    tables,
    notes,
  };
}
