/**
 * Trips on the road map: the fastest way between two places (Dijkstra over the junctions, weighted
 * by driving time at the speed limit), laid out as one polyline with what a driver reacts to along
 * it: speed limits, bends and junctions to slow down for, red lights to stop at, the destination.
 */
import { bearingDeg, distanceM, lerp, offset, projectOnSegment, turnDeg, type LatLon } from './geo';
import type { Random } from './random';
import { places as stockholmPlaces, roads as stockholmRoads, type Place, type PlaceId, type Road, type RoadKind } from './stockholm';

export interface RoutePoint extends LatLon {
  /** Metres from the start of the route. */
  d: number;
}

/** A speed the driver must be down to at a point: a bend, a junction, a red light (0) or the end (0). */
export interface SpeedCap {
  at: number;
  kmh: number;
  /** Seconds to wait there (a red light). */
  dwellS?: number;
}

export interface Route {
  points: RoutePoint[];
  length: number;
  /** Speed limit from `from` metres on, ascending. */
  limits: Array<{ from: number; kmh: number }>;
  /** Ascending by `at`; the last one is the destination. */
  caps: SpeedCap[];
  to: PlaceId;
  /** Road names in driving order, for logs and tests. */
  roads: string[];
}

interface Edge {
  road: Road;
  to: PlaceId;
  /** The road's polyline in this direction, both ends included. */
  path: LatLon[];
  length: number;
  seconds: number;
}

/** The speed allowed on a parking lot or driveway. */
const DRIVEWAY_KMH = 15;
/** How likely a traffic light on a city road is red when the vehicle gets there. */
const RED_LIGHT_CHANCE = 0.3;

function polylineLength(path: readonly LatLon[]): number {
  let sum = 0;
  for (let i = 1; i < path.length; i++) sum += distanceM(path[i - 1] as LatLon, path[i] as LatLon);
  return sum;
}

/** The speed a bend of `turn` degrees is taken at; null when it needs no slowing down. */
export function bendSpeedKmh(turn: number): number | null {
  if (turn < 20) return null;
  return Math.max(15, 95 - turn);
}

function junctionSpeedKmh(a: RoadKind, b: RoadKind): number {
  return a === 'motorway' && b === 'motorway' ? 50 : 30;
}

export class RoadNetwork {
  readonly places: Readonly<Record<PlaceId, Place>>;
  readonly roads: readonly Road[];
  readonly stops: readonly PlaceId[];
  private readonly edges = new Map<PlaceId, Edge[]>();

  constructor(placeList: Readonly<Record<PlaceId, Place>> = stockholmPlaces, roadList: readonly Road[] = stockholmRoads) {
    this.places = placeList;
    this.roads = roadList;
    this.stops = (Object.keys(placeList) as PlaceId[]).filter((id) => placeList[id].stop);
    for (const road of roadList) {
      const forward: LatLon[] = [placeList[road.from], ...road.via.map(([lat, lon]) => ({ lat, lon })), placeList[road.to]];
      const length = polylineLength(forward);
      const seconds = length / (road.limitKmh / 3.6);
      this.addEdge(road.from, { road, to: road.to, path: forward, length, seconds });
      this.addEdge(road.to, { road, to: road.from, path: [...forward].reverse(), length, seconds });
    }
  }

  private addEdge(from: PlaceId, edge: Edge): void {
    const list = this.edges.get(from) ?? [];
    list.push(edge);
    this.edges.set(from, list);
  }

  /** Every road as a polyline, for drawing and for checking where positions lie. */
  polylines(): LatLon[][] {
    return this.roads.map((road) => [this.places[road.from], ...road.via.map(([lat, lon]) => ({ lat, lon })), this.places[road.to]]);
  }

  /** The fastest sequence of edges from one place to another (the network is small: plain Dijkstra). */
  private fastest(from: PlaceId, to: PlaceId): Edge[] {
    const time = new Map<PlaceId, number>([[from, 0]]);
    const via = new Map<PlaceId, Edge & { from: PlaceId }>();
    const open = new Set<PlaceId>([from]);
    while (open.size) {
      let current: PlaceId | undefined;
      for (const id of open) if (current === undefined || (time.get(id) ?? Infinity) < (time.get(current) ?? Infinity)) current = id;
      if (current === undefined || current === to) break;
      open.delete(current);
      for (const edge of this.edges.get(current) ?? []) {
        const t = (time.get(current) ?? Infinity) + edge.seconds;
        if (t < (time.get(edge.to) ?? Infinity)) {
          time.set(edge.to, t);
          via.set(edge.to, { ...edge, from: current });
          open.add(edge.to);
        }
      }
    }
    if (from !== to && !via.has(to)) throw new Error(`no road from ${from} to ${to}`);
    const edges: Edge[] = [];
    for (let at = to; at !== from; ) {
      const step = via.get(at);
      if (!step) break;
      edges.unshift(step);
      at = step.from;
    }
    return edges;
  }

  /** Where a vehicle parks at a place: its own spot some metres off the junction, the same on every visit. */
  parkingSpot(place: PlaceId, vehicleIndex: number): LatLon {
    const p = this.places[place];
    return offset(p, 25 + ((vehicleIndex * 17) % 45), (vehicleIndex * 137.5) % 360);
  }

  /**
   * A trip from a parking spot at `from` (or from a point on a road, when resuming) to the
   * vehicle's parking spot at `to`, with red lights drawn from `rng`.
   */
  plan(start: { from: PlaceId; spot: LatLon } | { point: LatLon }, to: PlaceId, vehicleIndex: number, rng: Random): Route {
    const legs: Array<{ path: LatLon[]; kind: RoadKind | 'driveway'; kmh: number; name: string }> = [];
    let from: PlaceId;
    if ('from' in start) {
      from = start.from;
      legs.push({ path: [start.spot, this.places[from]], kind: 'driveway', kmh: DRIVEWAY_KMH, name: 'driveway' });
    } else {
      const joined = this.join(start.point, to);
      from = joined.place;
      legs.push(joined.leg);
    }
    for (const edge of this.fastest(from, to)) {
      legs.push({ path: edge.path, kind: edge.road.kind, kmh: edge.road.limitKmh, name: edge.road.name });
    }
    legs.push({ path: [this.places[to], this.parkingSpot(to, vehicleIndex)], kind: 'driveway', kmh: DRIVEWAY_KMH, name: 'driveway' });
    return this.layout(legs, to, rng);
  }

  /** From a point near a road to the end of that road that makes the trip to `to` fastest. */
  private join(point: LatLon, to: PlaceId): { place: PlaceId; leg: { path: LatLon[]; kind: RoadKind; kmh: number; name: string } } {
    const near = this.nearestRoadPoint(point);
    const road = near.road;
    const forward = this.polylines()[this.roads.indexOf(road)] as LatLon[];
    const onRoad = near.point;
    const toEnd = [onRoad, ...forward.slice(near.segment + 1)];
    const toStart = [onRoad, ...forward.slice(0, near.segment + 1).reverse()];
    const cost = (path: LatLon[], place: PlaceId) =>
      polylineLength(path) / (road.limitKmh / 3.6) + this.fastest(place, to).reduce((s, e) => s + e.seconds, 0);
    const useEnd = cost(toEnd, road.to) <= cost(toStart, road.from);
    return {
      place: useEnd ? road.to : road.from,
      leg: { path: [point, ...(useEnd ? toEnd : toStart)], kind: road.kind, kmh: road.limitKmh, name: road.name },
    };
  }

  /** The nearest point on any road, and how far away it is. */
  nearestRoadPoint(p: LatLon): { road: Road; segment: number; point: LatLon; distance: number } {
    let best: { road: Road; segment: number; point: LatLon; distance: number } | undefined;
    const lines = this.polylines();
    for (let r = 0; r < lines.length; r++) {
      const line = lines[r] as LatLon[];
      for (let i = 1; i < line.length; i++) {
        const a = line[i - 1] as LatLon;
        const b = line[i] as LatLon;
        const { fraction, distance } = projectOnSegment(p, a, b);
        if (!best || distance < best.distance) best = { road: this.roads[r] as Road, segment: i - 1, point: lerp(a, b, fraction), distance };
      }
    }
    if (!best) throw new Error('the road network is empty');
    return best;
  }

  private layout(legs: Array<{ path: LatLon[]; kind: RoadKind | 'driveway'; kmh: number; name: string }>, to: PlaceId, rng: Random): Route {
    const points: RoutePoint[] = [];
    const limits: Route['limits'] = [];
    const caps: SpeedCap[] = [];
    const names: string[] = [];
    let prevKind: RoadKind | 'driveway' | undefined;
    for (const leg of legs) {
      if (names[names.length - 1] !== leg.name) names.push(leg.name);
      const startD = points.length ? (points[points.length - 1] as RoutePoint).d : 0;
      limits.push({ from: startD, kmh: leg.kmh });
      if (prevKind !== undefined && startD > 0) {
        const kmh = prevKind === 'driveway' || leg.kind === 'driveway' ? DRIVEWAY_KMH : junctionSpeedKmh(prevKind, leg.kind);
        caps.push({ at: startD, kmh });
      }
      for (let i = points.length ? 1 : 0; i < leg.path.length; i++) {
        const p = leg.path[i] as LatLon;
        const last = points[points.length - 1];
        const d = last ? last.d + distanceM(last, p) : 0;
        if (last && d - last.d < 0.01) continue;
        points.push({ lat: p.lat, lon: p.lon, d });
        const interior = i > 0 && i < leg.path.length - 1;
        if (interior && leg.kind === 'city' && rng.chance(RED_LIGHT_CHANCE)) caps.push({ at: d, kmh: 0, dwellS: rng.int(10, 45) });
      }
      prevKind = leg.kind;
    }
    // Bends: the sharper, the slower (junction caps may sit at the same spot; the lower one wins).
    for (let i = 1; i < points.length - 1; i++) {
      const a = points[i - 1] as RoutePoint;
      const b = points[i] as RoutePoint;
      const c = points[i + 1] as RoutePoint;
      const kmh = bendSpeedKmh(turnDeg(bearingDeg(a, b), bearingDeg(b, c)));
      if (kmh !== null) caps.push({ at: b.d, kmh });
    }
    const length = (points[points.length - 1] as RoutePoint).d;
    caps.push({ at: length, kmh: 0 });
    caps.sort((x, y) => x.at - y.at || x.kmh - y.kmh);
    return { points, length, limits, caps, to, roads: names };
  }
}

/** Position and direction of travel `d` metres along a route. */
export function pointAt(route: Route, d: number, hint = 0): { point: LatLon; heading: number; index: number } {
  const pts = route.points;
  let i = Math.max(1, Math.min(hint, pts.length - 1));
  while (i < pts.length - 1 && (pts[i] as RoutePoint).d < d) i++;
  while (i > 1 && (pts[i - 1] as RoutePoint).d > d) i--;
  const a = pts[i - 1] as RoutePoint;
  const b = pts[i] as RoutePoint;
  const f = b.d === a.d ? 1 : Math.max(0, Math.min(1, (d - a.d) / (b.d - a.d)));
  return { point: lerp(a, b, f), heading: bearingDeg(a, b), index: i };
}

export function limitAt(route: Route, d: number): number {
  let kmh = route.limits[0]?.kmh ?? DRIVEWAY_KMH;
  for (const l of route.limits) {
    if (l.from > d) break;
    kmh = l.kmh;
  }
  return kmh;
}
