/**
 * Congestion tax control points (betalstationer) of Stockholm (the inner-city cordon and
 * Essingeleden) and Gothenburg (the cordon, the Backa stations and the Backa control points K1-K7),
 * each as one or more short lines ACROSS its road, crossed by a vehicle that passes the station.
 *
 * Source of the positions: the WGS84 station positions published with the open-source "Trängselskatt
 * — Stockholm och Göteborg" calculator, which states they were converted from Trafikverket's
 * GeoPackages "Betalstationer_70525.gpkg" (Stockholm) and "Betalstationer_Göteborg_84729.gpkg"
 * (Gothenburg) from SWEREF99 TM; station names and numbers from Transportstyrelsen's "Betalstationer
 * i Stockholm" and the Backa exception page.
 *
 * K6 and K7 (Lundbyleden's ramps), which that calculator lacks: the one "Lundbyleden" position of a
 * second open-source congestion tax module (Python, written for a car-data service), whose Backa
 * control points K1-K4 agree with the first source's within 2 m.
 *
 * Licence: the calculators state none. Only coordinates are taken from it (facts about where public
 * road installations stand), none of its code; they are to be replaced by Transportstyrelsen's
 * station file ("Excel-fil med kartkoordinater för betalstationer"; its open data may be reused
 * without restrictions) or Trafikverket's GeoPackage once at hand. The source gives no road
 * bearings: how each crossing line was derived is in docs/decisions/0038-congestion-control-points.md
 * and in `axis` below.
 */

export type CongestionCity = 'stockholm' | 'gothenburg';

/** Which kind of control point: it decides the tariff (Essingeleden) and the Backa rule. */
export type ControlPointKind = 'cordon' | 'essingeleden' | 'backa-station' | 'backa-control';

/** Crossing senses that are charged; 'none' for the Backa control points, which only observe. */
export type ChargedDirection = 'both' | 'in' | 'out' | 'none';

/**
 * How a site's road course was found:
 * - a number: the road's course at the station in degrees (0-179), read from the road's general
 *   direction between the places it links, or from the source's sensors where they lie along it;
 * - 'radial': the road is taken to run towards the city centre (a cordon road), so its course is the
 *   bearing from CITY_CENTRES to the site;
 * - 'chain': Essingeleden's course, the bearing between the neighbouring Essingeleden stations.
 */
export type Axis = number | 'radial' | 'chain';

export interface ControlSite {
  /** [lon, lat], WGS84. */
  at: readonly [number, number];
  axis: Axis;
  /** The crossing line's length, metres (40 unless stated). */
  lengthM?: number;
}

export interface ControlPointRecord {
  id: string;
  city: CongestionCity;
  name: string;
  /** Transportstyrelsen's station number where the source gives one. */
  number?: number;
  kind: ControlPointKind;
  charged: ChargedDirection;
  /** The first local day (Europe/Stockholm) the station charges (or observes), yyyy-MM-dd. */
  validFrom: string;
  /** One site per cluster of sensors; none when the source gives no position. */
  sites: readonly ControlSite[];
}

/** Where 'in' points for cordon roads, and the centre of a 'radial' axis: [lon, lat]. */
export const CITY_CENTRES: Record<CongestionCity, readonly [number, number]> = {
  stockholm: [18.0649, 59.3326], // Sergels torg
  gothenburg: [11.9668, 57.7072], // Gustaf Adolfs torg
};

/** The area each city's control points lie in: [west, south, east, north]. */
export const CITY_AREAS: Record<CongestionCity, readonly [number, number, number, number]> = {
  stockholm: [17.9, 59.25, 18.2, 59.42],
  gothenburg: [11.85, 57.62, 12.1, 57.8],
};

/** Stockholm's permanent congestion tax (lag 2004:629) from 1 August 2007. */
const STHLM_FROM = '2007-08-01';
/** Essingeleden charged from 2016-01-01 (SFS 2014:248). */
const ESSINGE_FROM = '2016-01-01';
/** Gothenburg's congestion tax from 2013-01-01. */
const GBG_FROM = '2013-01-01';
/** Marieholmstunneln's stations from 2020-12-16 (SFS 2020:120). */
const MARIEHOLM_FROM = '2020-12-16';
/** The Backa exception and its control points from 2018-05-01 (prop. 2015/16:191). */
const BACKA_RULE_FROM = '2018-05-01';

const site = (lon: number, lat: number, axis: Axis, lengthM?: number): ControlSite =>
  lengthM === undefined ? { at: [lon, lat], axis } : { at: [lon, lat], axis, lengthM };

const sthlm = (id: string, name: string, number: number | undefined, sites: ControlSite[], validFrom = STHLM_FROM): ControlPointRecord => ({
  id: `sth-${id}`,
  city: 'stockholm',
  name,
  ...(number === undefined ? {} : { number }),
  kind: 'cordon',
  charged: 'both',
  validFrom,
  sites,
});

const essinge = (id: string, name: string, number: number, lon: number, lat: number): ControlPointRecord => ({
  id: `sth-ess-${id}`,
  city: 'stockholm',
  name,
  number,
  kind: 'essingeleden',
  charged: 'both',
  validFrom: ESSINGE_FROM,
  // A six-lane motorway: a 60 m line covers both carriageways.
  sites: [site(lon, lat, 'chain', 60)],
});

const gbg = (id: string, name: string, sites: ControlSite[], kind: ControlPointKind = 'cordon', validFrom = GBG_FROM): ControlPointRecord => ({
  id: `gbg-${id}`,
  city: 'gothenburg',
  name,
  kind,
  charged: kind === 'backa-control' ? 'none' : 'both',
  validFrom,
  sites,
});

export const CONTROL_POINTS: readonly ControlPointRecord[] = [
  // Stockholm, the inner-city cordon.
  sthlm('danvikstull', 'Danvikstull', 1, [site(18.10348, 59.31397, 100)]), // Danviksbron runs ESE to Nacka
  sthlm('skansbron', 'Skansbron', 2, [site(18.07942, 59.30403, 175)]), // the bridges over Hammarby kanal run N-S
  sthlm('skanstullsbron', 'Skanstullsbron', 3, [site(18.07737, 59.30632, 175)]),
  sthlm('johanneshovsbron', 'Johanneshovsbron', 4, [site(18.07713, 59.3038, 175)]),
  sthlm('liljeholmsbron', 'Liljeholmsbron', 5, [site(18.029, 59.3117, 20)]), // the source's two sensors lie along the bridge at 21°
  sthlm('ekelundsbron', 'Ekelundsbron', 10, [site(18.01293, 59.34062, 10)]), // over Karlbergssjön to Solna, N-S
  sthlm('klarastrandsleden', 'Klarastrandsleden', 11, [site(18.02992, 59.33879, 'radial')]),
  sthlm('tomtebodavagen', 'Tomtebodavägen', 12, [site(18.02615, 59.34372, 'radial')]),
  sthlm('solnabron', 'Solnabron', 13, [site(18.0322, 59.3467, 163)]), // the source's two sensors lie along the bridge at 163°
  sthlm('norrtull', 'Norrtull', 14, [
    // Two sensor clusters 113 m apart (the source's sensors 401 and 402); its centroid lies between them.
    site(18.04264, 59.34976, 'radial', 30),
    site(18.04396, 59.3504, 'radial', 30),
  ]),
  sthlm('ekhagen', 'Ekhagen', 21, [
    // The ramps beside the E18 (course 20°), two clusters 200 m apart (sensors 411/412 and 413/414);
    // 30 m lines keep off the E18's own carriageways.
    site(18.05058, 59.37128, 20, 30),
    site(18.05112, 59.36942, 20, 30),
  ]),
  sthlm('frescati', 'Frescati', 22, [site(18.05246, 59.36562, 20, 30)]),
  sthlm('universitetet', 'Universitetet', 23, [site(18.0549, 59.363, 20, 30)]),
  sthlm('roslagstull', 'Roslagstull', 24, [site(18.0584, 59.3526, 20, 60)]), // sensors 52 m apart across the road
  sthlm('vartan', 'Värtan', 25, [site(18.0955, 59.3513, 'radial'), site(18.1065, 59.3523, 'radial')]),
  sthlm('ropsten', 'Ropsten', 26, [
    // Two clusters 159 m apart (sensors 461/462 and 463/464).
    site(18.10505, 59.35662, 'radial'),
    site(18.10241, 59.35694, 'radial'),
  ]),
  // In the source's station file but not in Transportstyrelsen's numbered list; the day they came
  // into use is not known, so they carry the cordon's date (see the decision record).
  sthlm('halsingegatan', 'Hälsingegatan', undefined, [site(18.03623, 59.34907, 'radial')]),
  sthlm('hagastaden', 'Hagastaden', undefined, [site(18.03305, 59.34768, 'radial')]),

  // Stockholm, Essingeleden (E4/E20), south to north: the order 'chain' reads.
  essinge('stora-essingen', 'Stora Essingen', 6, 17.9965, 59.3226),
  essinge('lilla-essingen', 'Lilla Essingen', 7, 18.00399, 59.32511),
  essinge('fredhall', 'Fredhäll', 8, 18.0107, 59.3313),
  essinge('kristineberg', 'Kristineberg', 9, 18.0106, 59.3363),

  // Gothenburg, the cordon.
  gbg('fridkullagatan', 'Fridkullagatan', [site(11.98761, 57.68244, 'radial')]),
  gbg('gibraltargatan', 'Gibraltargatan', [site(11.98449, 57.683, 'radial')]),
  gbg('doktor-allards-gata', 'Doktor Allards gata', [site(11.97867, 57.68157, 'radial')]),
  gbg('ehrenstromsgatan', 'Ehrenströmsgatan', [site(11.96869, 57.67917, 'radial')]),
  gbg('dag-hammarskjoldsleden', 'Dag Hammarskjöldsleden', [site(11.94235, 57.67799, 'radial')]),
  gbg('margaretebergsgatan', 'Margaretebergsgatan', [site(11.94323, 57.68084, 'radial')]),
  gbg('fjallgatan-jungmansgatan', 'Fjällgatan/Jungmansgatan', [site(11.94561, 57.69613, 'radial')]),
  gbg('stigbergsliden', 'Stigbergsliden', [site(11.93682, 57.69944, 'radial')]),
  // Oscarsleden and Emigrantvägen run side by side 22 m apart: 18 m lines keep them apart.
  gbg('e45-oscarsleden', 'E45 Oscarsleden', [site(11.93589, 57.69994, 'radial', 18)]),
  gbg('emigrantvagen', 'Emigrantvägen', [site(11.93581, 57.70014, 'radial', 18)]),
  gbg('alvsborgsbron', 'Älvsborgsbron', [site(11.89896, 57.69494, 160, 40)]), // the bridge runs NNW over the river
  gbg('lindholmsallen', 'Lindholmsallén', [site(11.93581, 57.70763, 'radial')]),
  gbg('karlavagnsgatan-vastra', 'Karlavagnsgatan västra', [site(11.93528, 57.7082, 'radial')]),
  gbg('polstjarnegatan', 'Polstjärnegatan', [
    // Two clusters 100 m apart (sensors 531/532 and 533/534).
    site(11.93644, 57.71056, 'radial'),
    site(11.93731, 57.71139, 'radial'),
  ]),
  gbg('karlavagnsgatan-ostra', 'Karlavagnsgatan östra', [site(11.94306, 57.71192, 'radial')]),
  gbg('hjalmar-brantingsgatan', 'Hjalmar Brantingsgatan', [
    // Two clusters 92 m apart (sensors 551 and 552).
    site(11.95807, 57.72024, 'radial'),
    site(11.95953, 57.7205, 'radial'),
  ]),
  gbg('ringomotet', 'Ringömotet', [
    // The source's centroid (11.9798, 57.7253) lies between two clusters 400 m apart (sensors
    // 611/612 and 613/614), on no road of its own; one site per cluster.
    site(11.9762, 57.72602, 'radial'),
    site(11.98264, 57.7247, 'radial'),
  ]),
  gbg('salsmastaregatan', 'Salsmästaregatan', [site(11.98463, 57.72402, 'radial')]),
  gbg('marieholmsgatan', 'Marieholmsgatan', [site(11.99075, 57.72072, 'radial')]),
  gbg('e45-marieholmsleden', 'E45 Marieholmsleden', [site(11.99376, 57.72012, 'radial')]),
  gbg('partihandelsgatan', 'Partihandelsgatan', [site(11.99454, 57.71861, 'radial')]),
  gbg('e20-alingsasleden', 'E20 Alingsåsleden', [site(11.99688, 57.7168, 'radial', 60)]),
  // Three ramps within 120 m of each other: 30 m lines.
  gbg('olskroksmotet-avfart-e20', 'Olskroksmotet avfart E20', [site(11.99505, 57.71524, 'radial', 30)]),
  gbg('olskroksmotet-pafart-e6', 'Olskroksmotet påfart E6', [site(11.99495, 57.71479, 'radial', 30)]),
  gbg('redbergsvagen', 'Redbergsvägen', [site(11.99458, 57.71406, 'radial', 30)]),
  gbg('willinsbron', 'Willinsbron', [site(11.99706, 57.7093, 'radial')]),
  gbg('orgrytevagen', 'Örgrytevägen', [site(11.99723, 57.69788, 'radial')]),
  gbg('kungsbackaleden', 'Kungsbackaleden', [site(12.0009, 57.6893, 10, 60)]), // the E6, N-S; the sensors lie along it
  gbg('sankt-sigfridsgatan', 'Sankt Sigfridsgatan', [site(12.00498, 57.68919, 'radial')]),
  gbg('molndalsvagen', 'Mölndalsvägen', [site(11.99954, 57.68506, 'radial')]),
  gbg('marieholmstunneln-avfart-e6-norr', 'Marieholmstunneln avfart E6 norr', [site(11.9867, 57.72824, 'radial', 30)], 'cordon', MARIEHOLM_FROM),
  gbg('marieholmstunneln-pafart-e6-norr', 'Marieholmstunneln påfart E6 norr', [site(11.98699, 57.72864, 'radial', 30)], 'cordon', MARIEHOLM_FROM),

  // Gothenburg, the Backa stations (nos. 17-21): charged for through traffic only from 2018-05-01.
  gbg('sodra-tagenevagen', 'Södra Tagenevägen', [site(11.98865, 57.75925, 'radial')], 'backa-station'),
  gbg('skalltorpsvagen', 'Skälltorpsvägen', [site(11.98964, 57.75824, 'radial')], 'backa-station'),
  gbg('backadalen', 'Backadalen', [site(11.98894, 57.74764, 'radial')], 'backa-station'),
  gbg('tingstadsmotet-avfart-e6', 'Tingstadsmotet avfart E6', [site(11.98332, 57.73202, 'radial')], 'backa-station'),
  gbg('tingstadsvagen', 'Tingstadsvägen', [site(11.98229, 57.73095, 'radial')], 'backa-station'),

  // Gothenburg, the Backa control points: they charge nothing, a passage there makes a Backa
  // station passage within 30 minutes through traffic. K1 and K2 are 30 m apart: 18 m lines.
  gbg('k1-backtuvevagen', 'K1 Bäcktuvevägen', [site(11.94102, 57.73887, 'radial', 18)], 'backa-control', BACKA_RULE_FROM),
  gbg('k2-tuvevagen', 'K2 Tuvevägen', [site(11.94152, 57.73891, 'radial', 18)], 'backa-control', BACKA_RULE_FROM),
  gbg('k3-minelundsvagen', 'K3 Minelundsvägen', [site(11.95306, 57.72972, 'radial')], 'backa-control', BACKA_RULE_FROM),
  gbg('k4-deltavagen', 'K4 Deltavägen', [site(11.9541, 57.72847, 'radial')], 'backa-control', BACKA_RULE_FROM),
  gbg('k5-backavagen', 'K5 Backavägen', [site(11.9601, 57.7264, 'radial')], 'backa-control', BACKA_RULE_FROM),
  // K6 and K7: the second source gives one "Lundbyleden" point, so one record for both ramps. The ramps
  // run with Lundbyleden (53°, Tingstadsmotet to Brantingsmotet); 18 m keeps the line off the main
  // carriageway beside them.
  gbg('k6-k7-lundbyleden', 'K6/K7 Lundbyleden påfart och avfart', [site(11.97109, 57.72707, 53, 18)], 'backa-control', BACKA_RULE_FROM),
];

// ---------------------------------------------------------------------------------------------
// The lines, derived from the records.

/** A crossing line: ends `a` and `b` as [lon, lat]; travelling 'in' crosses from the right of a->b to its left. */
export interface ControlLine {
  station: ControlPointRecord;
  a: readonly [number, number];
  b: readonly [number, number];
  /** The road's course in the 'in' sense, degrees 0-359. */
  inBearing: number;
  lengthM: number;
}

const DEG = Math.PI / 180;
const M_PER_DEG_LAT = 111_195;
export const DEFAULT_LINE_M = 40;

/** Bearing in degrees (0-359) from one [lon, lat] to another, on a local flat projection. */
export function bearingDeg(from: readonly [number, number], to: readonly [number, number]): number {
  const kx = Math.cos(((from[1] + to[1]) / 2) * DEG);
  const dx = (to[0] - from[0]) * kx;
  const dy = to[1] - from[1];
  return ((Math.atan2(dx, dy) / DEG) % 360 + 360) % 360;
}

const angleBetween = (x: number, y: number) => {
  const d = Math.abs((((x - y) % 360) + 360) % 360);
  return Math.min(d, 360 - d);
};

/** The course of a 'chain' site: between its neighbours on Essingeleden, south to north. */
function chainBearing(record: ControlPointRecord, all: readonly ControlPointRecord[]): number {
  const chain = all.filter((r) => r.kind === 'essingeleden').map((r) => r.sites[0]?.at).filter((p) => p !== undefined);
  const here = record.sites[0]?.at;
  const i = chain.findIndex((p) => p === here);
  const prev = chain[Math.max(0, i - 1)];
  const next = chain[Math.min(chain.length - 1, i + 1)];
  if (i < 0 || !prev || !next || prev === next) throw new Error(`no Essingeleden neighbours for ${record.id}`);
  return bearingDeg(prev, next);
}

function lineOf(record: ControlPointRecord, s: ControlSite, all: readonly ControlPointRecord[]): ControlLine {
  const centre = CITY_CENTRES[record.city];
  let course: number;
  if (s.axis === 'chain') course = chainBearing(record, all);
  else if (s.axis === 'radial') course = bearingDeg(centre, s.at);
  else course = s.axis;
  // 'in': the sense of the course that heads towards the centre; on Essingeleden, northbound.
  const towards = record.kind === 'essingeleden' ? 0 : bearingDeg(s.at, centre);
  const inBearing = angleBetween(course, towards) <= 90 ? ((course % 360) + 360) % 360 : (course + 180) % 360;
  const lengthM = s.lengthM ?? DEFAULT_LINE_M;
  // The line runs at right angles to the road: `b` lies at inBearing + 90°, so 'in' ends on the left of a->b.
  const across = (inBearing + 90) * DEG;
  const half = lengthM / 2;
  const dLat = (Math.cos(across) * half) / M_PER_DEG_LAT;
  const dLon = (Math.sin(across) * half) / (M_PER_DEG_LAT * Math.cos(s.at[1] * DEG));
  return {
    station: record,
    a: [s.at[0] - dLon, s.at[1] - dLat],
    b: [s.at[0] + dLon, s.at[1] + dLat],
    inBearing,
    lengthM,
  };
}

/** Every crossing line of a set of records (all of CONTROL_POINTS by default). */
export function controlLines(records: readonly ControlPointRecord[] = CONTROL_POINTS): ControlLine[] {
  return records.flatMap((r) => r.sites.map((s) => lineOf(r, s, records)));
}
