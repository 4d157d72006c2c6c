/**
 * Real-time tracking payloads (docs/api.md Member: realtime/units, units/{imei}/positions, live/connection,
 * trackers/{imei}/latest-position). Times are ISO 8601 UTC; the browser shows them in its time zone.
 */
import { z } from 'zod';
import { operatingModes } from './commands';
import { trackingMessageKeys as keys } from './tracking-messages';
import { IMEI_PATTERN } from '../validators/imei';

export const imeiParamSchema = z.object({ imei: z.string().regex(IMEI_PATTERN, keys.InvalidImei) });

/** The latest state of a unit, as ingest keeps it (spec section 3 unit fields). */
export const unitStateSchema = z.object({
  /** Device time of the newest accepted position. */
  ts: z.string(),
  lat: z.number(),
  lon: z.number(),
  /** km/h */
  speed: z.number().nullable(),
  /** degrees 0-359 */
  heading: z.number().nullable(),
  alt: z.number().nullable(),
  ignition: z.boolean().nullable(),
  movement: z.boolean().nullable(),
  /** volts */
  extVolts: z.number().nullable(),
  batVolts: z.number().nullable(),
  din: z.record(z.string(), z.boolean()),
  dout: z.record(z.string(), z.boolean()),
  /** metres */
  odometer: z.number().nullable(),
  engineSeconds: z.number().nullable(),
  /** When the tracker was last heard from (receive time), which may be newer than `ts`. */
  lastSeen: z.string(),
});
export type UnitState = z.infer<typeof unitStateSchema>;

/** A unit the caller may see, with its latest state (null before its first position). */
export const realtimeUnitSchema = z.object({
  imei: z.string(),
  name: z.string(),
  registrationNumber: z.string().nullable(),
  vehicleType: z.string(),
  /** Marker colour (#rrggbb) and symbol chosen for the unit. */
  color: z.string(),
  symbol: z.string(),
  driver: z.string().nullable(),
  departments: z.array(z.string()),
  /** Names of the digital outputs the user gave them (spec: label at most 20 characters), by output "1".."3". */
  doutLabels: z.record(z.string(), z.string()),
  /** The operating mode the tracker last acknowledged, null while unknown. */
  operatingMode: z.enum(operatingModes).nullable(),
  state: unitStateSchema.nullable(),
  /**
   * The locker's name while the unit's access is locked (shared/schemas/unit-lock.ts); for anyone but
   * the locker and support `state` is then null (TrackerIsLocked).
   */
  lockedBy: z.string().optional(),
});
export type RealtimeUnit = z.infer<typeof realtimeUnitSchema>;
export const realtimeUnitsSchema = z.array(realtimeUnitSchema);

/**
 * The map's view of a unit (`view=map`): what the map draws and the list shows and searches, the
 * rest (driver, departments, output names, the state's voltages, inputs and counters) is asked for
 * when the unit is selected (`?imei=`). A `RealtimeUnit` has every field of it, so code that reads
 * only these serves both. About 60 % of a full unit's bytes.
 */
export const mapUnitStateSchema = unitStateSchema.pick({ ts: true, lat: true, lon: true, speed: true, heading: true, ignition: true, movement: true, lastSeen: true });
export const mapUnitSchema = realtimeUnitSchema.pick({
  imei: true,
  name: true,
  registrationNumber: true,
  vehicleType: true,
  color: true,
  symbol: true,
  operatingMode: true,
  lockedBy: true,
}).extend({ state: mapUnitStateSchema.nullable() });
export type MapUnit = z.infer<typeof mapUnitSchema>;

/** Units per page of the map's view: at most about 600 bytes each (long names), 3 MB, half of Lambda's 6 MB answer limit. */
export const REALTIME_PAGE_MAX = 5000;
/** The page size when `limit` is not given. */
export const REALTIME_PAGE_DEFAULT = 2000;
/** At most this many segments (`segments`): chains of pages a client may read at once. */
export const REALTIME_SEGMENTS_MAX = 16;

/**
 * `GET /realtime/units` without a query answers every unit in full (the contract). `view=map` opts
 * into the map's view in pages, ordered by IMEI: `limit` units (default 2000, at most 5000) after
 * `cursor`, the `next` of the previous page. `segments` (2..16, first page only) also answers, in
 * `segments`, cursors of further parts of the units to read at the same time as `next`'s chain:
 * every unit is in exactly one chain. `imei` answers that one unit in full (the details of a
 * selected unit), an empty list when the caller may not see it.
 */
export const realtimeUnitsQuerySchema = z
  .object({
    view: z.enum(['map'], { message: keys.InvalidRealtimeView }).optional(),
    limit: z.coerce.number({ message: keys.InvalidPageLimit }).int(keys.InvalidPageLimit).min(1, keys.InvalidPageLimit).max(REALTIME_PAGE_MAX, keys.InvalidPageLimit).optional(),
    /** Opaque; checked against the caller by the handler. */
    cursor: z.string().regex(/^[\w-]{1,400}$/, keys.InvalidCursor).optional(),
    segments: z.coerce.number({ message: keys.InvalidSegments }).int(keys.InvalidSegments).min(2, keys.InvalidSegments).max(REALTIME_SEGMENTS_MAX, keys.InvalidSegments).optional(),
    imei: z.string().regex(IMEI_PATTERN, keys.InvalidImei).optional(),
  })
  .refine((q) => q.view === 'map' || (q.limit === undefined && q.cursor === undefined && q.segments === undefined), { path: ['view'], message: keys.InvalidRealtimeView })
  .refine((q) => q.segments === undefined || q.cursor === undefined, { path: ['segments'], message: keys.InvalidSegments })
  .refine((q) => q.imei === undefined || q.view === undefined, { path: ['imei'], message: keys.InvalidRealtimeView });
export type RealtimeUnitsQuery = z.infer<typeof realtimeUnitsQuerySchema>;

/**
 * A page of the map's view; `next` is null on the last page. `segments`, answered to a first page
 * asked with `segments`: the cursors that start the other chains (possibly none, for a fleet that
 * fits in the first page).
 */
export const mapUnitsPageSchema = z.object({ units: z.array(mapUnitSchema), next: z.string().nullable(), segments: z.array(z.string()).optional() });
export type MapUnitsPage = z.infer<typeof mapUnitsPageSchema>;

/** History view: at most 30 days (spec sections 5 and 9). */
export const HISTORY_MAX_DAYS = 30;

const periodMs = (q: { from: string; to: string }) => Date.parse(q.to) - Date.parse(q.from);

export const positionsQuerySchema = z
  .object({
    from: z.iso.datetime({ offset: true, message: keys.InvalidDate }),
    to: z.iso.datetime({ offset: true, message: keys.InvalidDate }),
  })
  // zod runs these also when a date failed its own check: the span is then NaN, which neither
  // comparison below is true for, so a bad date gets InvalidDate alone.
  .refine((q) => !(periodMs(q) <= 0), { path: ['to'], message: keys.EndDateMustBeAfterStart })
  .refine((q) => !(periodMs(q) > HISTORY_MAX_DAYS * 86_400_000), { path: ['to'], message: keys.HistoryPeriodTooLong });

/**
 * At most this many positions per answer, the oldest first; a longer history comes back cut with the
 * message PositionsTruncated. About 105 bytes of JSON each, 40 000 stay near 4 MB, under Lambda's
 * 6 MB limit for a synchronous answer, and still cover 30 days of a tracker reporting every 10 s
 * while driving 3.5 hours a day.
 */
export const POSITIONS_MAX_POINTS = 40_000;

export const positionSchema = z.object({
  ts: z.string(),
  lat: z.number(),
  lon: z.number(),
  speed: z.number().nullable(),
  heading: z.number().nullable(),
  ignition: z.boolean().nullable(),
});
export type Position = z.infer<typeof positionSchema>;
export const positionsSchema = z.array(positionSchema);

/** How the browser opens the live channel (docs/api.md Live channel), used as given by any MQTT client. */
export const liveConnectionSchema = z.object({
  url: z.string(),
  clientId: z.string(),
  username: z.string(),
  password: z.string(),
  topics: z.array(z.string()),
});
export type LiveConnection = z.infer<typeof liveConnectionSchema>;

/** The base maps the web app can offer: street map, and satellite imagery where the provider has it. */
export const baseMapIds = ['streets', 'satellite'] as const;
export type BaseMapId = (typeof baseMapIds)[number];
/**
 * How a base map is drawn: `style`, a MapLibre style JSON at `url`; `pmtiles`, a Protomaps basemap
 * archive at `url` (an absolute or root-relative URL), with its fonts (`fonts/{fontstack}/{range}.pbf`)
 * and sprites (`sprites/light`) in the same folder, which the web app styles in the user's language.
 */
export const baseMapFormats = ['style', 'pmtiles'] as const;
export type BaseMapFormat = (typeof baseMapFormats)[number];
export const baseMapSchema = z.object({ id: z.enum(baseMapIds), url: z.string(), format: z.enum(baseMapFormats).optional() });
export type BaseMap = z.infer<typeof baseMapSchema>;

/**
 * OpenFreeMap's Liberty style: public, keyless, OpenStreetMap data. Its style, tiles, glyphs and
 * sprites are all on tiles.openfreemap.org; its TileJSON carries the attribution OpenFreeMap asks for.
 */
export const OPENFREEMAP_STYLE_URL = 'https://tiles.openfreemap.org/styles/liberty';

/**
 * The base map (functions/tracking/get-map-config.ts decides). `styles` lists the base maps on
 * offer, the default first (each a MapLibre style, or a self-hosted archive: `format`); the web app
 * tries them and draws its offline style (Natural Earth) when none can be loaded. `styleUrl` is what older clients read: the configured style
 * (MAP_STYLE_URL), null for the offline style.
 */
export const mapConfigSchema = z.object({ styleUrl: z.string().nullable(), styles: z.array(baseMapSchema).optional() });
export type MapConfig = z.infer<typeof mapConfigSchema>;

export const latestPositionSchema = z.object({ Latitude: z.number(), Longitude: z.number() }).nullable();

export const reverseGeocodeQuerySchema = z.object({
  lat: z.coerce.number({ message: keys.InvalidCoordinates }).min(-90, keys.InvalidCoordinates).max(90, keys.InvalidCoordinates),
  lon: z.coerce.number({ message: keys.InvalidCoordinates }).min(-180, keys.InvalidCoordinates).max(180, keys.InvalidCoordinates),
});
export const reverseGeocodeSchema = z.object({ address: z.string().nullable() });

/** Map marker symbols; the browser draws each with its own icon. */
export const markerSymbols = ['car', 'van', 'truck', 'bus', 'boat', 'waterjet', 'machine', 'tractor', 'trailer', 'bluetooth', 'pin'] as const;
export type MarkerSymbol = (typeof markerSymbols)[number];

export interface Marker {
  color: string;
  symbol: MarkerSymbol;
}

const MACHINE: Marker = { color: '#f59f00', symbol: 'machine' };
const markerByVehicleType: Readonly<Record<string, Marker>> = {
  car: { color: '#1c7ed6', symbol: 'car' },
  van: { color: '#1971c2', symbol: 'van' },
  lorry: { color: '#e8590c', symbol: 'truck' },
  truck: { color: '#e8590c', symbol: 'truck' },
  bus: { color: '#c2255c', symbol: 'bus' },
  boat: { color: '#1098ad', symbol: 'boat' },
  waterjet: { color: '#0ca678', symbol: 'waterjet' },
  trailer: { color: '#868e96', symbol: 'trailer' },
  tractor: { color: '#2f9e44', symbol: 'tractor' },
  bluetooth: { color: '#7048e8', symbol: 'bluetooth' },
  machine: MACHINE,
  excavator: MACHINE,
  'wheel-loader': MACHINE,
  loader: MACHINE,
  dumper: MACHINE,
  forklift: MACHINE,
  crane: MACHINE,
  roller: MACHINE,
  grader: MACHINE,
  bulldozer: MACHINE,
};
const FALLBACK_MARKER: Marker = { color: '#495057', symbol: 'pin' };

/** The marker a unit gets until someone picks its colour and symbol (spec section 3). */
export function defaultMarker(vehicleType: string): Marker {
  return markerByVehicleType[vehicleType.toLowerCase()] ?? FALLBACK_MARKER;
}
