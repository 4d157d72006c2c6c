/**
 * The road map and trip planning: the roads are drawn densely enough that no segment can cut
 * across a bay, every stop reaches every other, and a trip is laid out with what a driver meets.
 */
import { describe, expect, it } from 'vitest';
import { crossingsBetween } from '../../../shared/congestion/passages';
import { distanceM, type LatLon } from './geo';
import { bendSpeedKmh, limitAt, pointAt, RoadNetwork } from './network';
import { seededRandom } from './random';
import { places, stockholmBounds, type Place, type PlaceId, type Road } from './stockholm';

const network = new RoadNetwork();

describe('the Stockholm road map', () => {
  it('crosses the congestion tax stations where those roads do: Essingeleden, Norrtull, Johanneshovsbron, and no other', () => {
    const t = Date.UTC(2025, 2, 4, 7);
    const crossed = network.polylines().flatMap((line, r) =>
      line.slice(1).flatMap((b, i) => crossingsBetween({ t, ...(line[i] as LatLon) }, { t: t + 1000, ...b }).map((p) => `${network.roads[r]?.name}: ${p.station} ${p.direction}`)),
    );
    expect(crossed.sort()).toEqual([
      'Centralbron, Söderleden, Johanneshovsbron: Johanneshovsbron out',
      'E4 Uppsalavägen: Norrtull out',
      'E4/E20 Essingeleden: Lilla Essingen in',
    ]);
  });

  it('has waypoints close together (motorways 1.1 km, streets 700 m), all inside Stockholm', () => {
    for (const [r, line] of network.polylines().entries()) {
      const most = network.roads[r]?.kind === 'motorway' ? 1100 : 700;
      for (const p of line) {
        expect(p.lat).toBeGreaterThan(stockholmBounds.minLat);
        expect(p.lat).toBeLessThan(stockholmBounds.maxLat);
        expect(p.lon).toBeGreaterThan(stockholmBounds.minLon);
        expect(p.lon).toBeLessThan(stockholmBounds.maxLon);
      }
      for (let i = 1; i < line.length; i++) expect(distanceM(line[i - 1] as LatLon, line[i] as LatLon)).toBeLessThan(most);
    }
  });

  it('names the roads the issue asks for, with their limits', () => {
    const names = network.roads.map((r) => r.name).join(' | ');
    for (const road of ['Essingeleden', 'Valhallavägen', 'Nynäsvägen', 'Södertäljevägen', 'Uppsalavägen', 'Sveavägen', 'Centralbron']) expect(names).toContain(road);
    for (const r of network.roads) expect(r.limitKmh).toBeLessThanOrEqual(r.kind === 'motorway' ? 90 : 50);
  });

  it('reaches every stop from every other, parking spot to parking spot', () => {
    const rng = seededRandom(1);
    expect(network.stops.length).toBeGreaterThanOrEqual(6);
    for (const from of network.stops) {
      for (const to of network.stops) {
        if (from === to) continue;
        const route = network.plan({ from, spot: network.parkingSpot(from, 3) }, to, 3, rng);
        const first = route.points[0] as LatLon;
        const last = route.points[route.points.length - 1] as LatLon;
        expect(distanceM(first, network.parkingSpot(from, 3))).toBeLessThan(0.01);
        expect(distanceM(last, network.parkingSpot(to, 3))).toBeLessThan(0.01);
        expect(route.length).toBeGreaterThanOrEqual(distanceM(places[from], places[to]));
        // No silly detours: the longest (Kungens kurva to Kista through the city) is 1.7 times the crow's line.
        expect(route.length).toBeLessThan(1.8 * distanceM(places[from], places[to]) + 500);
        expect(route.caps[route.caps.length - 1]).toEqual({ at: route.length, kmh: 0 });
      }
    }
  });

  it('takes the fastest way: the motorways around rather than the city streets through', () => {
    const route = network.plan({ from: 'depot', spot: network.parkingSpot('depot', 0) }, 'kista', 0, seededRandom(2));
    expect(route.roads).toEqual([
      'driveway',
      'Västbergavägen',
      'E4/E20 Södertäljevägen',
      'E4/E20 Essingeleden',
      'Drottningholmsvägen, Fleminggatan, Kungsbron',
      'Vasagatan, Kungsgatan',
      'Sveavägen',
      'E4 Uppsalavägen',
      'driveway',
    ]);
    expect(limitAt(route, route.length / 2)).toBeGreaterThan(0);
  });

  it('gives each vehicle its own spot at a place, a few tens of metres off the road', () => {
    const spots = Array.from({ length: 20 }, (_, i) => network.parkingSpot('city', i));
    for (const s of spots) {
      const d = distanceM(s, places.city);
      expect(d).toBeGreaterThanOrEqual(24.9);
      expect(d).toBeLessThan(70);
    }
    expect(new Set(spots.map((s) => `${s.lat.toFixed(6)},${s.lon.toFixed(6)}`)).size).toBe(20);
  });

  it('slows down for bends in proportion to how sharp they are, and stops at red lights on city streets only', () => {
    expect(bendSpeedKmh(10)).toBeNull();
    expect(bendSpeedKmh(45)).toBe(50);
    expect(bendSpeedKmh(120)).toBe(15);
    const rng = seededRandom(3);
    const trips = Array.from({ length: 30 }, () => network.plan({ from: 'city', spot: network.parkingSpot('city', 1) }, 'karlaplan', 1, rng));
    const lights = trips.flatMap((t) => t.caps.filter((c) => c.kmh === 0 && c.dwellS !== undefined));
    expect(lights.length).toBeGreaterThan(0);
    for (const l of lights) expect(l.dwellS).toBeGreaterThanOrEqual(10);
    const motorway = Array.from({ length: 30 }, () => network.plan({ from: 'gullmarsplan', spot: network.parkingSpot('gullmarsplan', 1) }, 'farsta', 1, rng));
    expect(motorway.flatMap((t) => t.caps.filter((c) => c.dwellS !== undefined))).toEqual([]);
  });

  it('joins the nearest road from anywhere near it, towards where it is going', () => {
    const nearSveavagen = { lat: 59.3441, lon: 18.0553 };
    const near = network.nearestRoadPoint(nearSveavagen);
    expect(near.road.name).toContain('Sveavägen');
    expect(near.distance).toBeLessThan(30);
    const route = network.plan({ point: nearSveavagen }, 'kista', 0, seededRandom(4));
    expect(route.roads[0]).toContain('Sveavägen');
    expect(route.roads).toContain('E4 Uppsalavägen');
    expect(pointAt(route, 0).point).toEqual({ lat: nearSveavagen.lat, lon: nearSveavagen.lon });
  });

  it('refuses a map whose places are not all connected', () => {
    const island: Record<string, Place> = { ...places, farsta: { ...places.farsta } };
    const roads: Road[] = network.roads.filter((r) => r.to !== 'farsta');
    const broken = new RoadNetwork(island as Record<PlaceId, Place>, roads);
    expect(() => broken.plan({ from: 'city', spot: broken.parkingSpot('city', 0) }, 'farsta', 0, seededRandom(5))).toThrow(/no road from city to farsta/);
  });
});
