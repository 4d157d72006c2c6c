import { describe, expect, it } from 'vitest';
import { parseDateTime } from '../local-time';
import { controlLines, type ControlLine } from './control-points';
import { crossingsBetween, detectPassages, ESSINGELEDEN_PASS_MS, nearControlLines, type Fix } from './passages';
import { TAX_ZONE } from './tariff-tables';

type XY = readonly [number, number];
const M_PER_DEG = 111_195;
const DEG = Math.PI / 180;
const at = (wall: string) => parseDateTime(wall.replace(' ', 'T'), TAX_ZONE);

const lines = controlLines();
function lineOf(id: string): ControlLine {
  const line = lines.find((l) => l.station.id === id);
  if (!line) throw new Error(`no line ${id}`);
  return line;
}
const midOf = (l: ControlLine): XY => [(l.a[0] + l.b[0]) / 2, (l.a[1] + l.b[1]) / 2];

/** A point `m` metres from `p` ([lon, lat]) on a bearing. */
function move(p: XY, bearing: number, m: number): XY {
  return [p[0] + (Math.sin(bearing * DEG) * m) / (M_PER_DEG * Math.cos(p[1] * DEG)), p[1] + (Math.cos(bearing * DEG) * m) / M_PER_DEG];
}
const fix = (p: XY, t: number): Fix => ({ t, lon: p[0], lat: p[1] });

/** Fixes every `stepS` seconds at `speed` m/s along a polyline of [lon, lat] points. */
function drive(points: XY[], start: number, speed = 20, stepS = 2): Fix[] {
  const fixes: Fix[] = [];
  let t = start;
  for (let k = 1; k < points.length; k++) {
    const p = points[k - 1];
    const q = points[k];
    if (!p || !q) continue;
    const dx = (q[0] - p[0]) * M_PER_DEG * Math.cos(p[1] * DEG);
    const dy = (q[1] - p[1]) * M_PER_DEG;
    const length = Math.hypot(dx, dy);
    const steps = Math.max(1, Math.round(length / (speed * stepS)));
    for (let s = k === 1 ? 0 : 1; s <= steps; s++) {
      const f = s / steps;
      fixes.push({ t: t + Math.round(((f * length) / speed) * 1000), lon: p[0] + f * (q[0] - p[0]), lat: p[1] + f * (q[1] - p[1]) });
    }
    t += Math.round((length / speed) * 1000);
  }
  return fixes;
}

const danvikstull = lineOf('sth-danvikstull');
const danvikMid = midOf(danvikstull);
const tenAm = at('2026-03-10 10:00:00');

describe('passages across a control line', () => {
  it('finds a crossing with fixes 1 km apart, its time interpolated along the step', () => {
    const from = fix(move(danvikMid, danvikstull.inBearing, -500), tenAm);
    const to = fix(move(danvikMid, danvikstull.inBearing, 500), tenAm + 60_000);
    expect(detectPassages([from, to])).toEqual([
      { stationId: 'sth-danvikstull', city: 'stockholm', station: 'Danvikstull', direction: 'in', time: tenAm + 30_000, uncertain: false },
    ]);
    // A quarter of the way along the step, a quarter of the way through its time.
    const early = fix(move(danvikMid, danvikstull.inBearing, -250), tenAm);
    const late = fix(move(danvikMid, danvikstull.inBearing, 750), tenAm + 100_000);
    expect(detectPassages([early, late]).map((p) => p.time)).toEqual([tenAm + 25_000]);
  });

  it('tells the direction from the sense of the crossing', () => {
    const inside = fix(move(danvikMid, danvikstull.inBearing, 40), tenAm + 10_000);
    const outside = fix(move(danvikMid, danvikstull.inBearing, -40), tenAm);
    expect(detectPassages([outside, inside]).map((p) => p.direction)).toEqual(['in']);
    expect(detectPassages([{ ...inside, t: tenAm }, { ...outside, t: tenAm + 10_000 }]).map((p) => p.direction)).toEqual(['out']);
    // Out and back: two passages.
    const back = fix(move(danvikMid, danvikstull.inBearing, -40), tenAm + 20_000);
    expect(detectPassages([outside, inside, back]).map((p) => p.direction)).toEqual(['in', 'out']);
  });

  it('finds nothing for a drive along a control line that never crosses it', () => {
    const along = (danvikstull.inBearing + 90) % 360;
    const beside = move(danvikMid, danvikstull.inBearing, -3);
    const track = drive([move(beside, along, -300), move(beside, along, 300)], tenAm, 10, 1);
    expect(track.length).toBeGreaterThan(50);
    expect(detectPassages(track)).toEqual([]);
    // Nor for a drive that comes up to the line and turns back.
    expect(detectPassages(drive([move(danvikMid, danvikstull.inBearing, -200), move(danvikMid, danvikstull.inBearing, -1), move(danvikMid, danvikstull.inBearing, -200)], tenAm))).toEqual([]);
  });

  it('misses a road beside the line: a step that passes its end', () => {
    const past = move(danvikMid, (danvikstull.inBearing + 90) % 360, danvikstull.lengthM / 2 + 5);
    expect(detectPassages([fix(move(past, danvikstull.inBearing, -50), tenAm), fix(move(past, danvikstull.inBearing, 50), tenAm + 5000)])).toEqual([]);
  });

  it('marks a passage uncertain when the fixes are more than 2 minutes apart or a band edge lies between them', () => {
    const crossing = (t0: number, t1: number) =>
      detectPassages([fix(move(danvikMid, danvikstull.inBearing, -100), t0), fix(move(danvikMid, danvikstull.inBearing, 100), t1)]);
    expect(crossing(tenAm, tenAm + 120_000)[0]?.uncertain).toBe(false);
    expect(crossing(tenAm, tenAm + 180_000)[0]?.uncertain).toBe(true);
    expect(crossing(at('2026-03-10 06:29:45'), at('2026-03-10 06:30:15'))[0]?.uncertain).toBe(true);
    expect(crossing(at('2026-03-10 06:30:05'), at('2026-03-10 06:30:35'))[0]?.uncertain).toBe(false);
  });

  it('counts no passage before a station charges, and skips steps whose time does not advance', () => {
    const ess = lineOf('sth-ess-fredhall');
    const m = midOf(ess);
    const pass = (t: number) => detectPassages([fix(move(m, ess.inBearing, -100), t), fix(move(m, ess.inBearing, 100), t + 10_000)]);
    expect(pass(at('2015-12-31 08:00:00'))).toEqual([]);
    expect(pass(at('2016-01-01 08:00:00')).map((p) => p.stationId)).toEqual(['sth-ess-fredhall']);
    const same = detectPassages([fix(move(danvikMid, danvikstull.inBearing, -100), tenAm), fix(move(danvikMid, danvikstull.inBearing, 100), tenAm)]);
    expect(same).toEqual([]);
  });

  it('finds a crossing in one step across the whole city (the grid falls back to every line)', () => {
    const passages = crossingsBetween(fix(move(danvikMid, danvikstull.inBearing, -20_000), tenAm), fix(move(danvikMid, danvikstull.inBearing, 20_000), tenAm + 3_600_000));
    expect(passages.map((p) => p.stationId)).toContain('sth-danvikstull');
    expect(passages.every((p) => p.uncertain)).toBe(true);
    const times = passages.map((p) => p.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('finds nothing outside both cities', () => {
    expect(detectPassages([fix([15.0, 60.0], tenAm), fix([15.01, 60.01], tenAm + 60_000)])).toEqual([]);
  });

  it('marks Backa stations and control points', () => {
    for (const [id, backa] of [
      ['gbg-backadalen', 'station'],
      ['gbg-k3-minelundsvagen', 'control'],
    ] as const) {
      const l = lineOf(id);
      const m = midOf(l);
      const [p] = detectPassages([fix(move(m, l.inBearing, -30), tenAm), fix(move(m, l.inBearing, 30), tenAm + 5000)]);
      expect(p).toMatchObject({ stationId: id, city: 'gothenburg', backa });
    }
  });

  it('sees a car on a Lundbyleden ramp at K6/K7, not one on the main carriageway 20 m beside it', () => {
    const m = midOf(lineOf('gbg-k6-k7-lundbyleden'));
    const along = (offset: number) => drive([move(move(m, 143, offset), 53, -300), move(move(m, 143, offset), 53, 300)], tenAm);
    expect(detectPassages(along(0)).map((p) => [p.stationId, p.backa])).toEqual([['gbg-k6-k7-lundbyleden', 'control']]);
    expect(detectPassages(along(20))).toEqual([]);
    expect(detectPassages(along(-20))).toEqual([]);
  });
});

describe('Essingeleden passes', () => {
  const chain = ['sth-ess-stora-essingen', 'sth-ess-lilla-essingen', 'sth-ess-fredhall', 'sth-ess-kristineberg'].map((id) => midOf(lineOf(id)));
  const first = chain[0];
  const last = chain[chain.length - 1];
  if (!first || !last) throw new Error('no Essingeleden');
  const north = [move(first, 237, 400), ...chain, move(last, 359, 400)];
  const south = [...north].reverse();

  it('counts a drive along Essingeleden past all its stations once, at the first', () => {
    const track = drive(north, at('2026-03-10 07:00:00'));
    const passages = detectPassages(track);
    expect(passages).toHaveLength(1);
    expect(passages[0]).toMatchObject({ stationId: 'sth-ess-stora-essingen', station: 'Stora Essingen', direction: 'in', essingeleden: true, uncertain: false });
    // Each line is crossed on the way: the single passage is the merging, not a miss.
    const steps = track.slice(1).flatMap((to, k) => {
      const from = track[k];
      return from ? crossingsBetween(from, to) : [];
    });
    expect(steps.map((p) => p.station)).toEqual(['Stora Essingen', 'Lilla Essingen', 'Fredhäll', 'Kristineberg']);
  });

  it('counts the way back, and a second pass the same way, as passages of their own', () => {
    const there = drive(north, at('2026-03-10 07:00:00'));
    const back = drive(south, at('2026-03-10 07:05:00'));
    const again = drive(north, at('2026-03-10 07:05:00') + ESSINGELEDEN_PASS_MS + 60_000);
    const passages = detectPassages([...there, ...back, ...again]);
    expect(passages.map((p) => [p.station, p.direction])).toEqual([
      ['Stora Essingen', 'in'],
      ['Kristineberg', 'out'],
      ['Stora Essingen', 'in'],
    ]);
  });

  it('begins a new pass after a stop of more than ten minutes on Essingeleden', () => {
    // The car stops between Lilla Essingen and Fredhäll.
    const [lilla, fredhall] = [north[2], north[3]];
    if (!lilla || !fredhall) throw new Error('no Essingeleden');
    const stop: XY = [(lilla[0] + fredhall[0]) / 2, (lilla[1] + fredhall[1]) / 2];
    const before = drive([...north.slice(0, 3), stop], at('2026-03-10 07:00:00'));
    const stopped = before[before.length - 1];
    if (!stopped) throw new Error('no track');
    const resume = (after: number) => drive([stop, ...north.slice(3)], stopped.t + after);
    expect(detectPassages([...before, ...resume(ESSINGELEDEN_PASS_MS - 180_000)]).map((p) => p.station)).toEqual(['Stora Essingen']);
    expect(detectPassages([...before, ...resume(ESSINGELEDEN_PASS_MS + 60_000)]).map((p) => p.station)).toEqual(['Stora Essingen', 'Fredhäll']);
  });
});

describe('near the control lines', () => {
  it('holds within the margin of a city and not beyond it', () => {
    expect(nearControlLines({ lat: 59.3326, lon: 18.0649 }, 50)).toBe(true); // Sergels torg
    expect(nearControlLines({ lat: 59.1955, lon: 17.6253 }, 50)).toBe(true); // Södertälje, some 30 km out
    expect(nearControlLines({ lat: 59.8586, lon: 17.6389 }, 50)).toBe(false); // Uppsala, some 60 km north
    expect(nearControlLines({ lat: 57.7089, lon: 11.9746 }, 50)).toBe(true); // Gothenburg
    expect(nearControlLines({ lat: 63.8258, lon: 20.263 }, 50)).toBe(false); // Umeå
  });
});
