/** Hand-made tracks across the congestion tax control lines (shared/congestion/control-points.ts). */
import { controlLines, type ControlLine } from '../../shared/congestion/control-points';

const DEG = Math.PI / 180;
const M_PER_DEG = 111_195;
const lines = controlLines();

/** A station's (first) control line. */
export function lineOf(id: string): ControlLine {
  const line = lines.find((l) => l.station.id === id);
  if (!line) throw new Error(`no control line ${id}`);
  return line;
}

/** A tracker record `m` metres from the middle of a line along its `in` course (negative: on the outer side). */
export function near(line: ControlLine, m: number, ts: number): { ts: number; lat: number; lon: number; spd: number; sat: number } {
  const lon = (line.a[0] + line.b[0]) / 2;
  const lat = (line.a[1] + line.b[1]) / 2;
  return { ts, lat: lat + (Math.cos(line.inBearing * DEG) * m) / M_PER_DEG, lon: lon + (Math.sin(line.inBearing * DEG) * m) / (M_PER_DEG * Math.cos(lat * DEG)), spd: 40, sat: 9 };
}
