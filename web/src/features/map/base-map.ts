/**
 * Which base map the page draws. The server names the styles on offer (GET /user/map/config, the
 * default first); the page checks that a style can be reached before handing it to MapLibre, and
 * draws its offline style (offline-style.ts) when none can: the embedded runtime has no internet
 * connection on many machines, and a blank map is worse than a plain one.
 */
import type { StyleSpecification } from 'maplibre-gl';
import type { Language } from '../../../../shared/schemas/common';
import type { BaseMap, BaseMapId, MapConfig } from '../../../../shared/schemas/tracking';

/**
 * How long the style JSON may take before the offline map is drawn instead. Without a network a
 * request fails at once (no name resolution); this bounds the case where packets vanish.
 */
export const STYLE_CHECK_TIMEOUT_MS = 2_500;

/**
 * How long a map may stay blank while a style's JSON is on its way: then the offline map is drawn,
 * and the style replaces it if it still arrives.
 */
export const BLANK_MAP_MAX_MS = 1_000;

/** The part of sessionStorage the memory of unreachable styles needs. */
export type SessionStore = Pick<Storage, 'getItem' | 'setItem'>;

const UNREACHABLE_KEY = 'portal.unreachableBaseMaps';

/**
 * Styles found unreachable, remembered for the page load and the browser session: every map of the
 * session (the real-time map, history, geofences, a trip's route) draws the offline map at once
 * instead of trying the same style again on each mount.
 */
export function unreachableBaseMaps(store: SessionStore | null): { list(): string[]; add(url: string): void } {
  const known = new Set<string>();
  try {
    const saved: unknown = JSON.parse(store?.getItem(UNREACHABLE_KEY) ?? '[]');
    if (Array.isArray(saved)) for (const url of saved) if (typeof url === 'string') known.add(url);
  } catch {
    // A damaged entry is forgotten: the styles are tried again.
  }
  return {
    list: () => [...known],
    add(url) {
      if (known.has(url)) return;
      known.add(url);
      try {
        store?.setItem(UNREACHABLE_KEY, JSON.stringify([...known]));
      } catch {
        // Storage full or blocked: remembered for this page load only.
      }
    },
  };
}

/** The base maps on offer: `styles`, or for a server that predates it the one `styleUrl`. */
export function baseMapsOf(config: MapConfig | undefined): BaseMap[] {
  if (!config) return [];
  if (config.styles) return config.styles;
  return config.styleUrl ? [{ id: 'streets', url: config.styleUrl }] : [];
}

/** The base map to try: the chosen one unless it failed, else the first that has not; null for the offline map. */
export function chooseBaseMap(offered: readonly BaseMap[], chosen: BaseMapId | null, failed: ReadonlySet<string>): BaseMap | null {
  const usable = offered.filter((style) => !failed.has(style.url));
  return usable.find((style) => style.id === chosen) ?? usable[0] ?? null;
}

export class StyleUnavailableError extends Error {
  override name = 'StyleUnavailableError';
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

interface FetchOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/**
 * `read`'s result of the answer from `url`, or a StyleUnavailableError when it does not arrive whole
 * within the timeout, `read` rejects it, or the request fails.
 */
async function fetchWithin<T>(url: string, init: RequestInit, options: FetchOptions, read: (response: Response) => Promise<T>): Promise<T> {
  const timeoutMs = options.timeoutMs ?? STYLE_CHECK_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new StyleUnavailableError(`no answer within ${timeoutMs} ms`)), timeoutMs);
  const outer = options.signal;
  const forward = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', forward, { once: true });
  try {
    return await read(await (options.fetch ?? fetch)(url, { ...init, signal: controller.signal }));
  } catch (error) {
    if (error instanceof StyleUnavailableError) throw error;
    const reason: unknown = controller.signal.reason;
    if (reason instanceof StyleUnavailableError) throw reason;
    throw new StyleUnavailableError(error instanceof Error ? error.message : String(error), { cause: error });
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', forward);
  }
}

/**
 * The style JSON at `url`, or a StyleUnavailableError when it does not arrive whole within the
 * timeout, is not a MapLibre style (version 8 with sources and layers), or the request fails.
 */
export function fetchStyle(url: string, options: FetchOptions = {}): Promise<StyleSpecification> {
  return fetchWithin(url, { headers: { accept: 'application/json' } }, options, async (response) => {
    if (!response.ok) throw new StyleUnavailableError(`HTTP ${response.status}`);
    const style: unknown = await response.json();
    if (!isObject(style) || style['version'] !== 8 || !isObject(style['sources']) || !Array.isArray(style['layers'])) {
      throw new StyleUnavailableError('not a MapLibre style');
    }
    return style as unknown as StyleSpecification;
  });
}

/** The length of a PMTiles v3 header, which starts with "PMTiles" and the version byte 3. */
const PMTILES_HEADER_BYTES = 127;

/**
 * Resolves when `url` answers a range request with the header of a PMTiles v3 archive; else a
 * StyleUnavailableError. A server that ignores the range (200 with the whole file, which may be
 * many gigabytes) is refused without reading its body: the archive is read only in ranges.
 */
export function checkArchive(url: string, options: FetchOptions = {}): Promise<void> {
  return fetchWithin(url, { headers: { range: `bytes=0-${PMTILES_HEADER_BYTES - 1}` } }, options, async (response) => {
    if (response.status !== 206) {
      await response.body?.cancel().catch(() => undefined);
      throw new StyleUnavailableError(response.ok ? 'the archive is not served in ranges' : `HTTP ${response.status}`);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length < 8 || new TextDecoder().decode(bytes.subarray(0, 7)) !== 'PMTiles' || bytes[7] !== 3) {
      throw new StyleUnavailableError('not a PMTiles v3 archive');
    }
  });
}

/**
 * The MapLibre style of a base map on offer: a style's JSON as served, or for a self-hosted archive
 * the Protomaps style in the user's language (protomaps-style.ts), once the archive answers.
 */
export async function loadBaseStyle(base: BaseMap, language: Language, options: FetchOptions & { pageUrl?: string } = {}): Promise<StyleSpecification> {
  if (base.format !== 'pmtiles') return fetchStyle(base.url, options);
  const pageUrl = options.pageUrl ?? globalThis.location.href;
  const archive = new URL(base.url, pageUrl).href;
  await checkArchive(archive, options);
  const { protomapsStyle } = await import('./protomaps-style');
  return protomapsStyle(archive, language, pageUrl);
}
