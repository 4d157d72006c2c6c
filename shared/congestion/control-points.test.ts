import { describe, expect, it } from 'vitest';
import { distanceM } from '../geo';
import { bearingDeg, CITY_AREAS, CITY_CENTRES, CONTROL_POINTS, controlLines, type ControlLine } from './control-points';

// The station lists of the source (the coordinate tables and the named lists of the law's pages).
const STOCKHOLM_CORDON = [
  'Danvikstull',
  'Skansbron',
  'Skanstullsbron',
  'Johanneshovsbron',
  'Liljeholmsbron',
  'Ekelundsbron',
  'Klarastrandsleden',
  'Tomtebodavägen',
  'Solnabron',
  'Norrtull',
  'Ekhagen',
  'Frescati',
  'Universitetet',
  'Roslagstull',
  'Värtan',
  'Ropsten',
  'Hälsingegatan',
  'Hagastaden',
];
const ESSINGELEDEN = ['Stora Essingen', 'Lilla Essingen', 'Fredhäll', 'Kristineberg'];
/** Transportstyrelsen's numbered list of Stockholm's stations. */
const STOCKHOLM_NUMBERS: Record<number, string> = {
  1: 'Danvikstull',
  2: 'Skansbron',
  3: 'Skanstullsbron',
  4: 'Johanneshovsbron',
  5: 'Liljeholmsbron',
  6: 'Stora Essingen',
  7: 'Lilla Essingen',
  8: 'Fredhäll',
  9: 'Kristineberg',
  10: 'Ekelundsbron',
  11: 'Klarastrandsleden',
  12: 'Tomtebodavägen',
  13: 'Solnabron',
  14: 'Norrtull',
  21: 'Ekhagen',
  22: 'Frescati',
  23: 'Universitetet',
  24: 'Roslagstull',
  25: 'Värtan',
  26: 'Ropsten',
};
const GOTHENBURG_CORDON = [
  'Fridkullagatan',
  'Gibraltargatan',
  'Doktor Allards gata',
  'Ehrenströmsgatan',
  'Dag Hammarskjöldsleden',
  'Margaretebergsgatan',
  'Fjällgatan/Jungmansgatan',
  'Stigbergsliden',
  'E45 Oscarsleden',
  'Emigrantvägen',
  'Älvsborgsbron',
  'Lindholmsallén',
  'Karlavagnsgatan västra',
  'Polstjärnegatan',
  'Karlavagnsgatan östra',
  'Hjalmar Brantingsgatan',
  'Ringömotet',
  'Salsmästaregatan',
  'Marieholmsgatan',
  'E45 Marieholmsleden',
  'Partihandelsgatan',
  'E20 Alingsåsleden',
  'Olskroksmotet avfart E20',
  'Olskroksmotet påfart E6',
  'Redbergsvägen',
  'Willinsbron',
  'Örgrytevägen',
  'Kungsbackaleden',
  'Sankt Sigfridsgatan',
  'Mölndalsvägen',
  'Marieholmstunneln avfart E6 norr',
  'Marieholmstunneln påfart E6 norr',
];
/** Stations 17-21, as the law's Backa page names them (the coordinate table writes "Tingstadvägen"). */
const BACKA_STATIONS = ['Södra Tagenevägen', 'Skälltorpsvägen', 'Backadalen', 'Tingstadsmotet avfart E6', 'Tingstadsvägen'];
const BACKA_CONTROLS = [
  'K1 Bäcktuvevägen',
  'K2 Tuvevägen',
  'K3 Minelundsvägen',
  'K4 Deltavägen',
  'K5 Backavägen',
  // One position for both ramps in the source: one record.
  'K6/K7 Lundbyleden påfart och avfart',
];

const namesOf = (pred: (r: (typeof CONTROL_POINTS)[number]) => boolean) => CONTROL_POINTS.filter(pred).map((r) => r.name).sort();
const sorted = (list: string[]) => [...list].sort();

type XY = readonly [number, number];
const cross = (o: XY, u: XY, v: XY) => (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0]);
const opposite = (x: number, y: number) => (x > 0 && y < 0) || (x < 0 && y > 0);

function pointToSegmentM(p: XY, s0: XY, s1: XY): number {
  const vx = s1[0] - s0[0];
  const vy = s1[1] - s0[1];
  const t = Math.max(0, Math.min(1, ((p[0] - s0[0]) * vx + (p[1] - s0[1]) * vy) / (vx * vx + vy * vy)));
  return Math.hypot(s0[0] + t * vx - p[0], s0[1] + t * vy - p[1]);
}

/** Metres between two lines on a flat projection (0 when they cross). */
function segmentGapM(p: ControlLine, q: ControlLine): number {
  const kx = 111_195 * Math.cos(p.a[1] * (Math.PI / 180));
  const toXY = (c: XY): XY => [c[0] * kx, c[1] * 111_195];
  const [a, b, c, d] = [toXY(p.a), toXY(p.b), toXY(q.a), toXY(q.b)];
  if (opposite(cross(c, d, a), cross(c, d, b)) && opposite(cross(a, b, c), cross(a, b, d))) return 0;
  return Math.min(pointToSegmentM(a, c, d), pointToSegmentM(b, c, d), pointToSegmentM(c, a, b), pointToSegmentM(d, a, b));
}

describe('the congestion tax control points', () => {
  it('holds every station of the source, per city and kind, each once', () => {
    expect(namesOf((r) => r.city === 'stockholm' && r.kind === 'cordon')).toEqual(sorted(STOCKHOLM_CORDON));
    expect(namesOf((r) => r.kind === 'essingeleden')).toEqual(sorted(ESSINGELEDEN));
    expect(namesOf((r) => r.city === 'gothenburg' && r.kind === 'cordon')).toEqual(sorted(GOTHENBURG_CORDON));
    expect(namesOf((r) => r.kind === 'backa-station')).toEqual(sorted(BACKA_STATIONS));
    expect(namesOf((r) => r.kind === 'backa-control')).toEqual(sorted(BACKA_CONTROLS));
    expect(CONTROL_POINTS.filter((r) => r.city === 'stockholm')).toHaveLength(22);
    expect(CONTROL_POINTS.filter((r) => r.city === 'gothenburg')).toHaveLength(43);
    expect(new Set(CONTROL_POINTS.map((r) => r.id)).size).toBe(CONTROL_POINTS.length);
    for (const [number, name] of Object.entries(STOCKHOLM_NUMBERS)) {
      expect(CONTROL_POINTS.find((r) => r.city === 'stockholm' && r.number === Number(number))?.name).toBe(name);
    }
  });

  it('charges in both directions everywhere but at the control points, which only observe', () => {
    for (const r of CONTROL_POINTS) expect(r.charged).toBe(r.kind === 'backa-control' ? 'none' : 'both');
  });

  it('dates each station: Essingeleden from 2016, Marieholmstunneln from 2020-12-16, the Backa control points from 2018-05-01', () => {
    for (const r of CONTROL_POINTS) {
      expect(r.validFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (r.kind === 'essingeleden') expect(r.validFrom).toBe('2016-01-01');
      if (r.kind === 'backa-control') expect(r.validFrom).toBe('2018-05-01');
      if (r.name.startsWith('Marieholmstunneln')) expect(r.validFrom).toBe('2020-12-16');
    }
  });

  it('places every site inside its city and gives every station a position', () => {
    for (const r of CONTROL_POINTS) {
      const [west, south, east, north] = CITY_AREAS[r.city];
      expect(r.sites.length, r.name).toBeGreaterThan(0);
      for (const s of r.sites) {
        expect(s.at[0], r.name).toBeGreaterThan(west);
        expect(s.at[0], r.name).toBeLessThan(east);
        expect(s.at[1], r.name).toBeGreaterThan(south);
        expect(s.at[1], r.name).toBeLessThan(north);
      }
    }
  });

  const lines = controlLines();

  it('makes each line 18-60 m long, centred on its site, at right angles to its road', () => {
    expect(lines).toHaveLength(CONTROL_POINTS.reduce((n, r) => n + r.sites.length, 0));
    for (const l of lines) {
      const length = distanceM(l.a[1], l.a[0], l.b[1], l.b[0]);
      expect(length, l.station.name).toBeGreaterThanOrEqual(17.9);
      expect(length, l.station.name).toBeLessThanOrEqual(60.1);
      expect(Math.abs(length - l.lengthM)).toBeLessThan(0.5);
      const mid: [number, number] = [(l.a[0] + l.b[0]) / 2, (l.a[1] + l.b[1]) / 2];
      expect(l.station.sites.some((s) => distanceM(s.at[1], s.at[0], mid[1], mid[0]) < 0.5)).toBe(true);
      const across = bearingDeg(l.a, l.b);
      const diff = Math.abs(((across - l.inBearing + 540) % 360) - 180);
      expect(Math.abs(diff - 90), l.station.name).toBeLessThan(0.5);
    }
  });

  it("points 'in' towards the city centre on cordon roads and northwards on Essingeleden", () => {
    for (const l of lines) {
      const mid: [number, number] = [(l.a[0] + l.b[0]) / 2, (l.a[1] + l.b[1]) / 2];
      const towards = l.station.kind === 'essingeleden' ? 0 : bearingDeg(mid, CITY_CENTRES[l.station.city]);
      const diff = Math.abs(((l.inBearing - towards + 540) % 360) - 180);
      expect(diff, l.station.name).toBeLessThanOrEqual(90);
    }
  });

  it('keeps the lines of different stations apart: none touches another', () => {
    const close: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      for (let j = i + 1; j < lines.length; j++) {
        const p = lines[i];
        const q = lines[j];
        if (!p || !q || p.station.id === q.station.id) continue;
        if (segmentGapM(p, q) < 1) close.push(`${p.station.name} / ${q.station.name}`);
      }
    }
    expect(close).toEqual([]);
  });
});
