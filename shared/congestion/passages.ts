/**
 * Congestion tax passages from a unit's track: the step between two consecutive fixes that
 * properly intersects a control line (control-points.ts) is a passage of that station, at the time
 * interpolated along the step, its direction from the sense of the crossing.
 *
 * Geometry: a flat projection per city (x = lon x cos(lat of the city), y = lat), exact at a city's
 * scale for lines of tens of metres, and a segment intersection of a few lines rather than a
 * geometry package: no such package is a dependency, and ingest runs this for every fix, where an
 * orientation test on numbers needs no objects. Cost per step: two box comparisons outside the
 * cities; inside one, the lines of the grid cells the step covers.
 */
import { startOfLocalDay } from '../local-time';
import { CONTROL_POINTS, controlLines, type CongestionCity, type ControlLine, type ControlPointRecord } from './control-points';
import { bandChangesBetween, localMinute, TAX_ZONE } from './tariff-tables';

export interface Fix {
  /** Epoch ms. */
  t: number;
  lat: number;
  lon: number;
}

export type PassageDirection = 'in' | 'out';

export interface Passage {
  stationId: string;
  city: CongestionCity;
  station: string;
  /** 'in': towards the city centre; on Essingeleden, northbound. */
  direction: PassageDirection;
  /** Epoch ms, interpolated along the step between the two fixes. */
  time: number;
  /** The fixes are more than 2 minutes apart, or the tax band may differ within the step. */
  uncertain: boolean;
  essingeleden?: true;
  /** A Backa station (charged for through traffic only) or a Backa control point (charges nothing). */
  backa?: 'station' | 'control';
}

/** Fixes further apart than this make the passage's time uncertain. */
export const UNCERTAIN_GAP_MS = 2 * 60_000;
/**
 * One Essingeleden pass: Essingeleden crossings in the same direction, each within this long of the
 * previous one, with no other station crossed between them, are one passage (the first crossing's).
 * The charged stretch is about 2 km, which takes some 6 minutes at a queue's 20 km/h.
 */
export const ESSINGELEDEN_PASS_MS = 10 * 60_000;

const DEG = Math.PI / 180;
/** Grid cells of about 550 m. */
const CELL_LAT = 0.005;
const CELL_LON = 0.01;
/** A step covering more cells than this scans the city's lines instead (a long gap in the track). */
const MAX_CELLS = 256;

interface IndexedLine {
  line: ControlLine;
  validFromMs: number;
  ax: number;
  ay: number;
  bx: number;
  by: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

interface CityIndex {
  city: CongestionCity;
  kx: number;
  minLon: number;
  maxLon: number;
  minLat: number;
  maxLat: number;
  lines: IndexedLine[];
  cells: Map<number, IndexedLine[]>;
}

export interface PassageIndex {
  cities: CityIndex[];
}

const cellKey = (i: number, j: number) => i * 100_000 + j;

/** The spatial index of a set of control points (built once per set; the default one lazily). */
export function buildPassageIndex(records: readonly ControlPointRecord[] = CONTROL_POINTS): PassageIndex {
  const lines = controlLines(records);
  const cities: CityIndex[] = [];
  for (const city of ['stockholm', 'gothenburg'] as const) {
    const own = lines.filter((l) => l.station.city === city);
    if (own.length === 0) continue;
    const lats = own.flatMap((l) => [l.a[1], l.b[1]]);
    const lons = own.flatMap((l) => [l.a[0], l.b[0]]);
    const kx = Math.cos(((Math.min(...lats) + Math.max(...lats)) / 2) * DEG);
    const indexed = own.map((line): IndexedLine => {
      const ax = line.a[0] * kx;
      const bx = line.b[0] * kx;
      return {
        line,
        validFromMs: startOfLocalDay(line.station.validFrom, TAX_ZONE),
        ax,
        ay: line.a[1],
        bx,
        by: line.b[1],
        minX: Math.min(ax, bx),
        maxX: Math.max(ax, bx),
        minY: Math.min(line.a[1], line.b[1]),
        maxY: Math.max(line.a[1], line.b[1]),
      };
    });
    const cells = new Map<number, IndexedLine[]>();
    for (const l of indexed) {
      const lonLo = Math.min(l.line.a[0], l.line.b[0]);
      const lonHi = Math.max(l.line.a[0], l.line.b[0]);
      for (let i = Math.floor(l.minY / CELL_LAT); i <= Math.floor(l.maxY / CELL_LAT); i++) {
        for (let j = Math.floor(lonLo / CELL_LON); j <= Math.floor(lonHi / CELL_LON); j++) {
          const key = cellKey(i, j);
          const list = cells.get(key);
          if (list) list.push(l);
          else cells.set(key, [l]);
        }
      }
    }
    cities.push({
      city,
      kx,
      minLon: Math.min(...lons),
      maxLon: Math.max(...lons),
      minLat: Math.min(...lats),
      maxLat: Math.max(...lats),
      lines: indexed,
      cells,
    });
  }
  return { cities };
}

let defaultIndex: PassageIndex | null = null;
const indexOrDefault = (index?: PassageIndex) => index ?? (defaultIndex ??= buildPassageIndex());

/**
 * Whether a position lies within `marginKm` of a city's control lines (their bounding box): where a
 * step of that length from or to it may cross one. Callers skip work far from both cities with it.
 */
export function nearControlLines(p: Pick<Fix, 'lat' | 'lon'>, marginKm: number, index?: PassageIndex): boolean {
  const dLat = marginKm / 111.195;
  return indexOrDefault(index).cities.some((c) => {
    const dLon = dLat / c.kx;
    return p.lat >= c.minLat - dLat && p.lat <= c.maxLat + dLat && p.lon >= c.minLon - dLon && p.lon <= c.maxLon + dLon;
  });
}

/** The lines of a city a step's box may meet: from the grid, or all of them for a very long step. */
function candidates(c: CityIndex, lat0: number, lat1: number, lon0: number, lon1: number): Iterable<IndexedLine> {
  const i0 = Math.floor(lat0 / CELL_LAT);
  const i1 = Math.floor(lat1 / CELL_LAT);
  const j0 = Math.floor(lon0 / CELL_LON);
  const j1 = Math.floor(lon1 / CELL_LON);
  if ((i1 - i0 + 1) * (j1 - j0 + 1) > MAX_CELLS) return c.lines;
  const found = new Set<IndexedLine>();
  for (let i = i0; i <= i1; i++) {
    for (let j = j0; j <= j1; j++) {
      for (const l of c.cells.get(cellKey(i, j)) ?? []) found.add(l);
    }
  }
  return found;
}

interface Crossing {
  passage: Passage;
  /** Where along the step, 0..1, to order crossings of one step. */
  s: number;
}

/**
 * The crossings of one step between two fixes, in order along it, one per station (a step that
 * crosses two lines of one station is one passage). No Essingeleden merging: see detectPassages.
 */
export function crossingsBetween(from: Fix, to: Fix, index?: PassageIndex): Passage[] {
  return stepCrossings(from, to, indexOrDefault(index)).map((c) => c.passage);
}

function stepCrossings(from: Fix, to: Fix, index: PassageIndex): Crossing[] {
  if (!(to.t > from.t)) return [];
  const lat0 = Math.min(from.lat, to.lat);
  const lat1 = Math.max(from.lat, to.lat);
  const lon0 = Math.min(from.lon, to.lon);
  const lon1 = Math.max(from.lon, to.lon);
  let out: Crossing[] | null = null;
  for (const c of index.cities) {
    if (lon1 < c.minLon || lon0 > c.maxLon || lat1 < c.minLat || lat0 > c.maxLat) continue;
    const px = from.lon * c.kx;
    const py = from.lat;
    const qx = to.lon * c.kx;
    const qy = to.lat;
    const minX = Math.min(px, qx);
    const maxX = Math.max(px, qx);
    for (const l of candidates(c, lat0, lat1, lon0, lon1)) {
      if (l.maxX < minX || l.minX > maxX || l.maxY < lat0 || l.minY > lat1) continue;
      // Which side of the line each fix is on (left of a->b is the 'in' side). A fix exactly on
      // the line counts as the left side, so a track through an end point crosses once.
      const dx = l.bx - l.ax;
      const dy = l.by - l.ay;
      const sp = dx * (py - l.ay) - dy * (px - l.ax);
      const sq = dx * (qy - l.ay) - dy * (qx - l.ax);
      const leftP = sp >= 0;
      if (leftP === sq >= 0) continue;
      // The step's line must cross the control line between its ends.
      const ex = qx - px;
      const ey = qy - py;
      const ea = ex * (l.ay - py) - ey * (l.ax - px);
      const eb = ex * (l.by - py) - ey * (l.bx - px);
      if ((ea > 0 && eb > 0) || (ea < 0 && eb < 0)) continue;
      const s = sp / (sp - sq);
      const time = Math.round(from.t + s * (to.t - from.t));
      const station = l.line.station;
      if (time < l.validFromMs) continue;
      const direction: PassageDirection = leftP ? 'out' : 'in';
      if (station.charged !== 'both' && station.charged !== 'none' && station.charged !== direction) continue;
      if (out?.some((o) => o.passage.stationId === station.id)) continue;
      const passage: Passage = {
        stationId: station.id,
        city: station.city,
        station: station.name,
        direction,
        time,
        uncertain: to.t - from.t > UNCERTAIN_GAP_MS || bandChangesBetween(station.city, from.t, to.t),
      };
      if (station.kind === 'essingeleden') passage.essingeleden = true;
      if (station.kind === 'backa-station') passage.backa = 'station';
      if (station.kind === 'backa-control') passage.backa = 'control';
      (out ??= []).push({ passage, s });
    }
  }
  if (!out) return [];
  return out.length > 1 ? out.sort((x, y) => x.s - y.s) : out;
}

/** The last Essingeleden crossing of a track: what a caller feeding fixes in pieces carries to the next piece. */
export interface EssingeledenPass {
  time: number;
  direction: PassageDirection;
}

/**
 * The passages of one step, Essingeleden counted once per pass (ESSINGELEDEN_PASS_MS) given the
 * track's last Essingeleden crossing before the step; answers the last one after it.
 */
export function passagesOfStep(
  from: Fix,
  to: Fix,
  last: EssingeledenPass | null,
  index?: PassageIndex,
): { passages: Passage[]; last: EssingeledenPass | null } {
  const passages: Passage[] = [];
  let lastEssinge = last;
  for (const { passage } of stepCrossings(from, to, indexOrDefault(index))) {
    if (passage.essingeleden) {
      const samePass: boolean =
        lastEssinge !== null && lastEssinge.direction === passage.direction && passage.time - lastEssinge.time <= ESSINGELEDEN_PASS_MS;
      lastEssinge = { time: passage.time, direction: passage.direction };
      if (samePass) continue;
    } else {
      lastEssinge = null;
    }
    passages.push(passage);
  }
  return { passages, last: lastEssinge };
}

/**
 * The passages of one unit's track, fixes ordered by time (a step whose time does not advance is
 * skipped). Essingeleden is counted once per pass (ESSINGELEDEN_PASS_MS); `last` is the track's
 * last Essingeleden crossing before its first fix, when known.
 */
export function detectPassages(fixes: readonly Fix[], index?: PassageIndex, last: EssingeledenPass | null = null): Passage[] {
  const idx = indexOrDefault(index);
  const passages: Passage[] = [];
  let lastEssinge = last;
  for (let k = 1; k < fixes.length; k++) {
    const from = fixes[k - 1];
    const to = fixes[k];
    if (!from || !to) continue;
    const step = passagesOfStep(from, to, lastEssinge, idx);
    lastEssinge = step.last;
    passages.push(...step.passages);
  }
  return passages;
}

/** The local day of a passage in the tax's zone, yyyy-MM-dd. */
export const passageDay = (p: Pick<Passage, 'time'>): string => localMinute(p.time).day;
