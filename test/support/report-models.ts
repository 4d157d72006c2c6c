/**
 * Report models made by hand for the renderers' tests and bench (functions/reports/render): a
 * two-unit trip log with Swedish and Norwegian letters, a private trip, facts with tones, an
 * appendix and a chart; the same two units as a summary in the `overview` layout; and a
 * trip-log-shaped model of any number of trips.
 */
import type { ReportLanguage } from '../../shared/reports/format';
import type { ReportColumn, ReportModel, ReportUnit } from '../../shared/schemas/reports';

const LABELS: Record<ReportLanguage, Record<string, string>> = {
  en: {
    title: 'Trip log',
    day: 'Date',
    start: 'Start',
    end: 'End',
    from: 'From',
    to: 'To',
    type: 'Type',
    driver: 'Driver',
    distance: 'Distance',
    duration: 'Time',
    odometer: 'Odometer',
    maxSpeed: 'Max speed',
    private: 'Private',
    business: 'Business',
    privateTrip: 'Private',
    changes: 'Changes',
    changedAt: 'Changed',
    field: 'Field',
    old: 'Before',
    new: 'After',
    odometerStart: 'Odometer at start',
    gap: 'Distance without trips',
    attested: 'Attested',
    chart: 'Distance per day',
    limit: 'Daily limit',
    unit: 'Unit',
    registrationNumber: 'Registration number',
    trips: 'Trips',
    summary: 'Summary',
  },
  sv: {
    title: 'Körjournal',
    day: 'Datum',
    start: 'Start',
    end: 'Slut',
    from: 'Från',
    to: 'Till',
    type: 'Typ',
    driver: 'Förare',
    distance: 'Sträcka',
    duration: 'Tid',
    odometer: 'Mätarställning',
    maxSpeed: 'Maxhastighet',
    private: 'Privat',
    business: 'Tjänst',
    privateTrip: 'Privat',
    changes: 'Ändringar',
    changedAt: 'Ändrad',
    field: 'Fält',
    old: 'Före',
    new: 'Efter',
    odometerStart: 'Mätarställning vid start',
    gap: 'Sträcka utan resor',
    attested: 'Attesterad',
    chart: 'Sträcka per dag',
    limit: 'Dagsgräns',
    unit: 'Enhet',
    registrationNumber: 'Registreringsnummer',
    trips: 'Resor',
    summary: 'Sammanställning',
  },
  no: {
    title: 'Kjørebok',
    day: 'Dato',
    start: 'Start',
    end: 'Slutt',
    from: 'Fra',
    to: 'Til',
    type: 'Type',
    driver: 'Sjåfør',
    distance: 'Strekning',
    duration: 'Tid',
    odometer: 'Kilometerstand',
    maxSpeed: 'Maks fart',
    private: 'Privat',
    business: 'Tjeneste',
    privateTrip: 'Privat',
    changes: 'Endringer',
    changedAt: 'Endret',
    field: 'Felt',
    old: 'Før',
    new: 'Etter',
    odometerStart: 'Kilometerstand ved start',
    gap: 'Strekning uten turer',
    attested: 'Attestert',
    chart: 'Strekning per dag',
    limit: 'Daglig grense',
    unit: 'Enhet',
    registrationNumber: 'Registreringsnummer',
    trips: 'Turer',
    summary: 'Sammendrag',
  },
};

export function tripLogColumns(lang: ReportLanguage): ReportColumn[] {
  const l = LABELS[lang];
  const column = (key: string, format: ReportColumn['format'], unit: string | null, total = false): ReportColumn => ({ key, label: l[key] as string, format, unit, total });
  return [
    column('day', 'day', null),
    column('start', 'time', null),
    column('end', 'time', null),
    column('from', 'text', null),
    column('to', 'text', null),
    column('type', 'text', null),
    column('driver', 'text', null),
    column('distance', 'km', 'km', true),
    column('duration', 'duration', 'h:mm', true),
    column('odometer', 'odometer', 'km'),
    column('maxSpeed', 'speed', 'km/h'),
  ];
}

interface TripSpec {
  day: string;
  start: string;
  end: string;
  from: string;
  to: string;
  private: boolean;
  driver: string;
  km: number;
  seconds: number;
  odometer: number;
  maxSpeed: number;
}

function tripRow(lang: ReportLanguage, trip: TripSpec): Record<string, unknown> {
  const l = LABELS[lang];
  return {
    day: trip.day,
    start: `${trip.day}T${trip.start}:00+01:00`,
    end: `${trip.day}T${trip.end}:00+01:00`,
    from: trip.from,
    to: trip.to,
    type: trip.private ? l['privateTrip'] : l['business'],
    driver: trip.driver,
    distance: trip.km,
    duration: trip.seconds,
    odometer: trip.odometer,
    maxSpeed: trip.maxSpeed,
  };
}

function sum(values: readonly number[]): number {
  return Math.round(values.reduce((a, b) => a + b, 0) * 1000) / 1000;
}

function unitOf(lang: ReportLanguage, imei: string, name: string, registrationNumber: string | null, trips: readonly TripSpec[]): ReportUnit {
  return {
    imei,
    name,
    registrationNumber,
    rows: trips.map((trip) => tripRow(lang, trip)),
    totals: { distance: sum(trips.map((t) => t.km)), duration: sum(trips.map((t) => t.seconds)) },
    facts: [],
    tables: [],
    notes: [],
  };
}

/** Two units, February 2026, Stockholm time. Unit 1 has facts (one alert), an appendix and a note. */
export function twoUnitTripLog(lang: ReportLanguage): ReportModel {
  const l = LABELS[lang];
  const first = unitOf(lang, '356307042441013', 'Skåpbil Östra Göinge', 'ÅÄÖ 123', [
    { day: '2026-02-02', start: '07:45', end: '08:32', from: 'Storgatan 1, Hässleholm', to: 'Kvarngatan 12, Ängelholm', private: false, driver: 'Åsa Öberg', km: 61.234, seconds: 2820, odometer: 10061, maxSpeed: 92 },
    { day: '2026-02-02', start: '16:05', end: '16:51', from: 'Kvarngatan 12, Ängelholm', to: 'Storgatan 1, Hässleholm', private: false, driver: 'Åsa Öberg', km: 60.9, seconds: 2760, odometer: 10122, maxSpeed: 95 },
    { day: '2026-02-07', start: '10:00', end: '10:22', from: 'Storgatan 1, Hässleholm', to: 'Sjöbacka gård, Bjärnum', private: true, driver: 'Åsa Öberg', km: 1172.456, seconds: 41_460, odometer: 11294, maxSpeed: 118 },
  ]);
  first.facts = [
    { key: 'odometerStart', label: l['odometerStart'] as string, value: 10000, format: 'odometer', unit: 'km', tone: null },
    { key: 'gap', label: l['gap'] as string, value: 14.25, format: 'km', unit: 'km', tone: 'alert' },
    { key: 'attested', label: l['attested'] as string, value: false, format: 'yesNo', unit: null, tone: 'warning' },
  ];
  first.tables = [
    {
      key: 'changes',
      title: l['changes'] as string,
      columns: [
        { key: 'changedAt', label: l['changedAt'] as string, format: 'dateTime', unit: null, total: false },
        { key: 'field', label: l['field'] as string, format: 'text', unit: null, total: false },
        { key: 'old', label: l['old'] as string, format: 'text', unit: null, total: false },
        { key: 'new', label: l['new'] as string, format: 'text', unit: null, total: false },
      ],
      rows: [{ changedAt: '2026-02-08T09:14:00+01:00', field: l['type'], old: l['business'], new: l['privateTrip'] }],
      totals: null,
    },
  ];
  first.notes = ['=SUM(A1) is text here, not a formula'];
  const second = unitOf(lang, '356307042441021', 'Ærlig Bjørn', null, [
    { day: '2026-02-03', start: '06:58', end: '07:40', from: 'Øvre Slottsgate 3, Oslo', to: 'Strømsveien 8, Lillestrøm', private: false, driver: 'Łukasz Šimůnek', km: 23.05, seconds: 2520, odometer: 55023, maxSpeed: 80 },
  ]);
  const units = [first, second];
  return {
    kind: 'tripLog',
    from: '2026-02-01',
    to: '2026-02-28',
    timeZone: 'Europe/Stockholm',
    lang,
    title: l['title'] as string,
    subtitle: '2026-02-01 – 2026-02-28',
    generatedAt: '2026-03-01T09:30:00+01:00',
    layout: 'units',
    columns: tripLogColumns(lang),
    units,
    totals: { distance: sum(units.map((u) => u.totals['distance'] as number)), duration: sum(units.map((u) => u.totals['duration'] as number)) },
    charts: [
      {
        title: l['chart'] as string,
        unit: 'km',
        labels: ['2026-02-02', '2026-02-03', '2026-02-07'],
        series: [
          { key: 'business', label: l['business'] as string, values: [122.134, 23.05, 0] },
          { key: 'private', label: l['private'] as string, values: [0, 0, 1172.456] },
        ],
        limits: [{ label: l['limit'] as string, value: 500 }],
      },
    ],
    notes: ['Trips without a driver are shown with an empty driver.'],
  };
}

const PLACES = ['Storgatan 1, Hässleholm', 'Kvarngatan 12, Ängelholm', 'Sjöbacka gård, Bjärnum', 'Östra Vallgatan 44, Lund', 'Brännögatan 7, Malmö'];

/** One unit with `trips` trips (four a day from 2026-01-01), shaped as the trip log. */
export function longTripLog(lang: ReportLanguage, trips: number): ReportModel {
  const l = LABELS[lang];
  const specs: TripSpec[] = [];
  let odometer = 20_000;
  for (let i = 0; i < trips; i += 1) {
    const date = new Date(Date.UTC(2026, 0, 1 + Math.floor(i / 4)));
    const hour = 7 + (i % 4) * 3;
    const km = 3 + ((i * 7919) % 700) / 10 + 0.123;
    odometer += km;
    specs.push({
      day: date.toISOString().slice(0, 10),
      start: `${String(hour).padStart(2, '0')}:05`,
      end: `${String(hour + 1).padStart(2, '0')}:40`,
      from: PLACES[i % PLACES.length] as string,
      to: `${PLACES[(i + 1) % PLACES.length] as string}, a long way round past the church and the old mill by the lake`,
      private: i % 9 === 0,
      driver: i % 2 ? 'Åsa Öberg' : 'Bjørn Ødegård',
      km,
      seconds: 5700,
      odometer: Math.round(odometer),
      maxSpeed: 50 + (i % 60),
    });
  }
  const unit = unitOf(lang, '356307042441013', 'Skåpbil Östra Göinge', 'ÅÄÖ 123', specs);
  return {
    kind: 'tripLog',
    from: specs[0]?.day ?? '2026-01-01',
    to: specs.at(-1)?.day ?? '2026-01-01',
    timeZone: 'Europe/Stockholm',
    lang,
    title: l['title'] as string,
    subtitle: `${specs[0]?.day ?? ''} – ${specs.at(-1)?.day ?? ''}`,
    generatedAt: '2026-12-31T18:00:00+01:00',
    layout: 'units',
    columns: tripLogColumns(lang),
    units: [unit],
    totals: { ...unit.totals },
    charts: [],
    notes: [],
  };
}

/** The two units of `twoUnitTripLog` as a summary: one row per unit in one table (`overview`). */
export function twoUnitSummary(lang: ReportLanguage): ReportModel {
  const log = twoUnitTripLog(lang);
  const l = LABELS[lang];
  const columns: ReportColumn[] = [
    { key: 'unitName', label: l['unit'] as string, format: 'text', unit: null, total: false },
    { key: 'registrationNumber', label: l['registrationNumber'] as string, format: 'text', unit: null, total: false },
    { key: 'trips', label: l['trips'] as string, format: 'count', unit: null, total: true },
    { key: 'distance', label: l['distance'] as string, format: 'km', unit: 'km', total: true },
    { key: 'duration', label: l['duration'] as string, format: 'duration', unit: 'h:mm', total: true },
  ];
  const units = log.units.map((u) => {
    const totals = { trips: u.rows.length, distance: u.totals['distance'] ?? null, duration: u.totals['duration'] ?? null };
    return { ...u, rows: [{ unitName: u.name, registrationNumber: u.registrationNumber, ...totals }], totals, tables: [] };
  });
  return {
    ...log,
    kind: 'summary',
    title: l['summary'] as string,
    layout: 'overview',
    columns,
    units,
    totals: { trips: 4, distance: log.totals['distance'] ?? null, duration: log.totals['duration'] ?? null },
  };
}
