/**
 * Leaves the loaded GeoJSON out of MapLibre's answer to a GeoJSON source's load from a URL (see
 * maplibre-worker.ts). MapLibre's worker talks to the page through `postMessage` on its global
 * scope: a request `{ id, type: 'LD', data: { request, ... } }`, its answer
 * `{ id, type: '<response>', data: { data?, resourceTiming? } }`.
 */
export interface ActorMessage {
  id?: unknown;
  type?: unknown;
  data?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Wraps a worker scope's postMessage; returns the listener to register for the page's messages. */
export function leaveOutLoadedGeoJson(scope: { postMessage(message: unknown, options?: StructuredSerializeOptions): void }): (event: MessageEvent<unknown>) => void {
  const urlLoads = new Set<unknown>();
  const post = scope.postMessage.bind(scope);
  scope.postMessage = (message: unknown, options?: StructuredSerializeOptions) => {
    if (isObject(message) && message['type'] === '<response>' && urlLoads.delete(message['id']) && isObject(message['data']) && 'data' in message['data']) {
      const { data: _loaded, ...rest } = message['data'];
      return post({ ...message, data: rest }, options);
    }
    return post(message, options);
  };
  return (event) => {
    const message = event.data;
    if (isObject(message) && message['type'] === 'LD' && isObject(message['data']) && isObject(message['data']['request'])) urlLoads.add(message['id']);
  };
}

interface WorkerScope {
  postMessage(message: unknown, options?: StructuredSerializeOptions): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

/** In MapLibre's worker (maplibre-worker.ts); a test imports the function alone. */
const scope = globalThis as unknown as Partial<WorkerScope>;
if (typeof WorkerGlobalScope !== 'undefined' && scope.postMessage && scope.addEventListener) scope.addEventListener('message', leaveOutLoadedGeoJson(scope as WorkerScope));

/** MapLibre's worker scope gives scripts in it `addProtocol` (a request's URL scheme to a loader). */
export interface ProtocolScope {
  addProtocol?(scheme: string, load: (request: { url: string; type?: string }, abort: AbortController) => Promise<{ data: unknown }>): void;
}

/**
 * The protocols MapLibre sees in the page's blob URLs, under which the loader is registered: it
 * names a URL's protocol by what comes before its first `://`, which for `blob:https://host/id` is
 * `blob:https`, not `blob`. (Registered as `blob`, the loader was never asked: every blob went
 * through the page's main thread again, its longest tasks while the map loaded.)
 */
export const BLOB_PROTOCOLS = ['blob:http', 'blob:https'] as const;

/** MapLibre's name for a URL's protocol (its `getProtocol`): what comes before the first `://`. */
export const protocolOf = (url: string): string => url.substring(0, url.indexOf('://'));

/** Loads a blob URL of the page in the worker, as MapLibre asks for it: parsed JSON, text or bytes. */
export async function fetchBlob(request: { url: string; type?: string }, abort: AbortController, load: typeof fetch = fetch): Promise<{ data: unknown }> {
  const response = await load(request.url, { signal: abort.signal });
  if (!response.ok) throw new Error(`${request.url}: HTTP ${response.status}`);
  if (request.type === 'json') return { data: await response.json() };
  if (request.type === 'string') return { data: await response.text() };
  return { data: await response.arrayBuffer() };
}
