/**
 * The self-hosted street map's place on the web app's own origin: CloudFront's `/basemap/*`
 * behaviour (the stack's basemap bucket) and the embedded runtime's base map folder serve the same
 * paths. The folder holds the Protomaps archive and, beside it, the fonts and sprites its style names
 * (web/src/features/map/protomaps-style.ts; docs/operations.md, "The base map").
 */
export const BASEMAP_PATH = '/basemap/';
export const BASEMAP_ARCHIVE = 'basemap.pmtiles';
/** BASEMAP_URL as the stack and the embedded runtime set it when the archive is there. */
export const BASEMAP_URL = `${BASEMAP_PATH}${BASEMAP_ARCHIVE}`;

/**
 * The source layers of the offline base map's archive, which the web build makes
 * (scripts/basemap/offline-basemap.ts) and the offline style draws (web/src/features/map/offline-style.ts).
 */
export const OFFLINE_BASEMAP_LAYERS = { land: 'land', borders: 'borders' } as const;
