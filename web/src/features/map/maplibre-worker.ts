/**
 * MapLibre's worker, with two changes for GeoJSON handed to MapLibre as blob URLs (a whole fleet's
 * units after a change of base map: unit-feed.ts; at first the offline base map's 20 MB of land
 * and borders, which are vector tiles now). Without them both copies of such data went through the
 * page's main thread, its longest tasks while the map loaded (385 ms on a quiet machine, more than
 * a second on a busy one in bench:map):
 *
 * - MapLibre's worker fetches only http(s) URLs itself and asks the page for any other (`GR`): the
 *   page fetched the blob, parsed the JSON and copied it over. A worker can fetch a blob URL of its
 *   page, so blob URLs are fetched and parsed here (BLOB_PROTOCOLS: the protocols MapLibre reads
 *   from them).
 * - MapLibre sends the data it loaded from a URL back to the page, so that `getData()` could answer
 *   without the worker; nothing here asks for it. maplibre-worker-patch.ts leaves it out.
 *
 * The patch must be in place before MapLibre's worker module sets up its message handling: imports
 * run in order.
 */
import './maplibre-worker-patch';
import MapLibreWorker from 'maplibre-gl/dist/maplibre-gl-worker.mjs';
import { BLOB_PROTOCOLS, fetchBlob, type ProtocolScope } from './maplibre-worker-patch';

// MapLibre's package marks its dist files free of side effects: used, the worker is kept in the
// bundle, with the statement that starts it in this scope (and gives it addProtocol).
Object.defineProperty(globalThis, 'MapLibreWorker', { value: MapLibreWorker });
for (const protocol of BLOB_PROTOCOLS) (globalThis as unknown as ProtocolScope).addProtocol?.(protocol, fetchBlob);
