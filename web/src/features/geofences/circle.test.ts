import { describe, expect, it } from 'vitest';
import { circleBounds, circleRing, clampRadius, destination, distanceM, nudge } from './circle';

const STOCKHOLM = { lat: 59.3293, lon: 18.0686 };

describe('circle geometry', () => {
  it('puts the point at a bearing and distance where the distance measures it back', () => {
    for (const bearing of [0, 45, 90, 180, 270]) {
      for (const metres of [300, 1234, 9999]) {
        expect(distanceM(STOCKHOLM, destination(STOCKHOLM, bearing, metres))).toBeCloseTo(metres, 3);
      }
    }
    expect(destination(STOCKHOLM, 0, 1000).lon).toBeCloseTo(STOCKHOLM.lon, 9);
    expect(destination(STOCKHOLM, 90, 1000).lon).toBeGreaterThan(STOCKHOLM.lon);
  });

  it('draws a closed ring whose corners all lie on the radius, within its bounds', () => {
    const ring = circleRing(STOCKHOLM, 500, 36);
    expect(ring).toHaveLength(37);
    expect(ring[0]).toEqual(ring[36]);
    const [[w, s], [e, n]] = circleBounds(STOCKHOLM, 500);
    for (const [lon, lat] of ring) {
      expect(distanceM(STOCKHOLM, { lat, lon })).toBeCloseTo(500, 3);
      expect(lon).toBeGreaterThanOrEqual(w - 1e-9);
      expect(lon).toBeLessThanOrEqual(e + 1e-9);
      expect(lat).toBeGreaterThanOrEqual(s - 1e-9);
      expect(lat).toBeLessThanOrEqual(n + 1e-9);
    }
  });

  it('keeps a dragged radius within the limits in whole metres', () => {
    expect(clampRadius(120, 300, 9999)).toBe(300);
    expect(clampRadius(12_000, 300, 9999)).toBe(9999);
    expect(clampRadius(456.6, 300, 9999)).toBe(457);
    expect(clampRadius(Number.NaN, 300, 9999)).toBe(300);
  });

  it('nudges the centre north and east by metres', () => {
    const north = nudge(STOCKHOLM, 0, 100);
    expect(north.lat).toBeGreaterThan(STOCKHOLM.lat);
    expect(distanceM(STOCKHOLM, north)).toBeCloseTo(100, 0);
    const east = nudge(STOCKHOLM, 100, 0);
    expect(east.lon).toBeGreaterThan(STOCKHOLM.lon);
    expect(east.lat).toBeCloseTo(STOCKHOLM.lat, 4);
  });
});
