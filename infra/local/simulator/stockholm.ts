/**
 * The simulated fleet's road map: a handful of real Stockholm roads as hand-made polylines, joined
 * at the junctions where the roads meet, and the places where vehicles stop.
 *
 * Why hand-made: no road data can be fetched here and none ships in a package, and a trip that
 * cuts straight across a bay looks broken on the map. The waypoints follow the roads (bridges
 * anchored on their published coordinates: Gröndalsbron, Fredhällsbron, Skanstullsbron) closely
 * enough for a city map, within some tens of metres, not lane-accurate (Nynäsvägen is placed by
 * what it passes: Tele2 Arena, Gamla Enskede west of Skogskyrkogården, Tallkrogen). Water is crossed
 * only on bridges; tunnels (Söderledstunneln, Södra länken, Fredhällstunneln) are drawn along their
 * course above ground. Waypoints sit a few hundred metres apart (motorways up to a kilometre, where
 * they run straight over land), so no segment can wander far off its road.
 */
import type { LatLon } from './geo';

export type RoadKind = 'motorway' | 'arterial' | 'city' | 'local';

export interface Place extends LatLon {
  name: string;
  /** Vehicles park here between trips. */
  stop: boolean;
}

export const places = {
  depot: { name: 'Västberga depot', stop: true, lat: 59.2915, lon: 18.0105 },
  vastbergamotet: { name: 'Västbergamotet', stop: false, lat: 59.293, lon: 18.004 },
  nyboda: { name: 'Trafikplats Nyboda', stop: false, lat: 59.2995, lon: 18.0175 },
  kungensKurva: { name: 'Kungens kurva', stop: true, lat: 59.2712, lon: 17.9195 },
  fredhall: { name: 'Fredhäll', stop: false, lat: 59.3312, lon: 18.0128 },
  city: { name: 'City (Vasagatan)', stop: true, lat: 59.3316, lon: 18.0578 },
  hotorget: { name: 'Sveavägen/Kungsgatan', stop: false, lat: 59.3355, lon: 18.063 },
  norrtull: { name: 'Norrtull', stop: false, lat: 59.3495, lon: 18.048 },
  stadion: { name: 'Stadion (Valhallavägen/Sturegatan)', stop: false, lat: 59.3432, lon: 18.0815 },
  kista: { name: 'Kista', stop: true, lat: 59.4035, lon: 17.946 },
  karlaplan: { name: 'Östermalm (Karlaplan)', stop: true, lat: 59.339, lon: 18.0915 },
  gullmarsplan: { name: 'Gullmarsplan', stop: true, lat: 59.2988, lon: 18.0812 },
  farsta: { name: 'Farsta', stop: true, lat: 59.244, lon: 18.0925 },
} as const satisfies Record<string, Place>;

export type PlaceId = keyof typeof places;

export interface Road {
  name: string;
  from: PlaceId;
  to: PlaceId;
  kind: RoadKind;
  limitKmh: number;
  /** Interior waypoints [lat, lon], from `from` towards `to`. */
  via: ReadonlyArray<readonly [number, number]>;
}

export const roads: readonly Road[] = [
  {
    name: 'Västbergavägen',
    from: 'depot',
    to: 'vastbergamotet',
    kind: 'local',
    limitKmh: 40,
    via: [[59.2922, 18.0075]],
  },
  {
    name: 'E4/E20 Södertäljevägen',
    from: 'vastbergamotet',
    to: 'nyboda',
    kind: 'motorway',
    limitKmh: 70,
    via: [[59.2962, 18.0118]],
  },
  {
    name: 'E4/E20 Södertäljevägen',
    from: 'vastbergamotet',
    to: 'kungensKurva',
    kind: 'motorway',
    limitKmh: 90,
    via: [
      [59.2917, 17.993],
      [59.2905, 17.98],
      [59.2895, 17.968],
      [59.288, 17.954],
      [59.286, 17.94],
      [59.283, 17.928],
      [59.279, 17.92],
      [59.2745, 17.916],
    ],
  },
  {
    name: 'E4/E20 Essingeleden',
    from: 'nyboda',
    to: 'fredhall',
    kind: 'motorway',
    limitKmh: 70,
    via: [
      [59.303, 18.017],
      [59.3065, 18.015],
      [59.31, 18.0115],
      [59.313, 18.0075],
      [59.3155, 18.0035],
      [59.317, 18.0005],
      // Gröndalsbron
      [59.3183, 17.9986],
      [59.32, 17.9975],
      [59.3218, 17.998],
      // Essingebron
      [59.3233, 17.9998],
      [59.325, 18.0035],
      // Fredhällsbron, then Fredhällstunneln
      [59.3268, 18.0069],
      [59.3285, 18.0095],
    ],
  },
  {
    name: 'Drottningholmsvägen, Fleminggatan, Kungsbron',
    from: 'fredhall',
    to: 'city',
    kind: 'city',
    limitKmh: 40,
    via: [
      [59.3318, 18.016],
      [59.332, 18.023],
      [59.3323, 18.0295],
      [59.3326, 18.033],
      [59.333, 18.04],
      [59.3334, 18.046],
      [59.3337, 18.0505],
      // Kungsbron over Klara sjö
      [59.3338, 18.0525],
      [59.3337, 18.0545],
      [59.3325, 18.057],
    ],
  },
  {
    name: 'Vasagatan, Kungsgatan',
    from: 'city',
    to: 'hotorget',
    kind: 'city',
    limitKmh: 40,
    via: [
      [59.333, 18.0573],
      [59.3343, 18.0568],
      [59.335, 18.06],
    ],
  },
  {
    name: 'Sveavägen',
    from: 'hotorget',
    to: 'norrtull',
    kind: 'city',
    limitKmh: 40,
    via: [
      [59.338, 18.061],
      [59.3405, 18.059],
      [59.344, 18.0555],
      [59.3465, 18.053],
      [59.3485, 18.0505],
    ],
  },
  {
    name: 'E4 Uppsalavägen',
    from: 'norrtull',
    to: 'kista',
    kind: 'motorway',
    limitKmh: 80,
    via: [
      // Through the Norrtull congestion tax station, where the E4 leaves the inner city.
      [59.34976, 18.04264],
      [59.353, 18.039],
      [59.357, 18.031],
      [59.3625, 18.0225],
      [59.369, 18.013],
      [59.376, 18.0],
      [59.383, 17.99],
      [59.39, 17.979],
      [59.397, 17.968],
      [59.404, 17.958],
      [59.4045, 17.95],
    ],
  },
  {
    name: 'Roslagstull, Valhallavägen',
    from: 'norrtull',
    to: 'stadion',
    kind: 'city',
    limitKmh: 40,
    via: [
      [59.35, 18.053],
      // Roslagstull
      [59.3503, 18.0578],
      [59.349, 18.062],
      [59.3475, 18.067],
      [59.346, 18.0715],
      [59.3447, 18.0765],
    ],
  },
  {
    name: 'Valhallavägen',
    from: 'stadion',
    to: 'karlaplan',
    kind: 'city',
    limitKmh: 40,
    via: [
      [59.3418, 18.086],
      [59.3395, 18.091],
    ],
  },
  {
    name: 'Kungsgatan, Stureplan, Sturegatan',
    from: 'hotorget',
    to: 'stadion',
    kind: 'city',
    limitKmh: 40,
    via: [
      [59.3354, 18.068],
      // Stureplan
      [59.3353, 18.0736],
      [59.3375, 18.0755],
      [59.34, 18.0775],
      [59.342, 18.08],
    ],
  },
  {
    name: 'Centralbron, Söderleden, Johanneshovsbron',
    from: 'city',
    to: 'gullmarsplan',
    kind: 'arterial',
    limitKmh: 50,
    via: [
      [59.3303, 18.061],
      // Centralbron
      [59.3285, 18.0628],
      [59.3262, 18.0645],
      [59.324, 18.066],
      [59.322, 18.0682],
      [59.3203, 18.0702],
      // Söderledstunneln
      [59.317, 18.073],
      [59.313, 18.075],
      [59.309, 18.077],
      [59.3065, 18.0785],
      // Johanneshovsbron, through its congestion tax station
      [59.3038, 18.0771],
      [59.301, 18.0805],
    ],
  },
  {
    name: 'Södra länken',
    from: 'nyboda',
    to: 'gullmarsplan',
    kind: 'motorway',
    limitKmh: 70,
    via: [
      [59.299, 18.03],
      [59.2985, 18.045],
      [59.2982, 18.06],
      [59.2985, 18.072],
    ],
  },
  {
    name: 'Nynäsvägen, Farstaleden',
    from: 'gullmarsplan',
    to: 'farsta',
    kind: 'motorway',
    limitKmh: 80,
    via: [
      [59.2955, 18.085],
      // Past Tele2 Arena and through Gamla Enskede, west of Skogskyrkogården
      [59.291, 18.088],
      [59.286, 18.0885],
      [59.28, 18.089],
      [59.274, 18.0895],
      // East of Tallkrogen, Gubbängen and Hökarängen
      [59.268, 18.0905],
      [59.262, 18.093],
      [59.256, 18.096],
      [59.2505, 18.099],
      [59.247, 18.099],
      [59.2455, 18.096],
    ],
  },
];

/** Where a machine works (the excavator): a building site in Hagastaden. */
export const workSite: LatLon = { lat: 59.3505, lon: 18.034 };

/** The area every simulated position lies in (for tests and sanity checks). */
export const stockholmBounds = { minLat: 59.2, maxLat: 59.45, minLon: 17.85, maxLon: 18.2 } as const;
