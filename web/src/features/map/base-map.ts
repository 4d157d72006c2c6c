/**
 * Which base map the page draws. The server names the styles on offer (GET /user/map/config, the
 * default first); the page checks that a style can be reached before handing it to MapLibre, and
 * draws its offline style (offline-style.ts) when none can: the embedded runtime has no internet
 * connection on many machines, and a blank map is worse than a plain one.
 */
import type { StyleSpecification } from 'maplibre-gl';
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

/**
 * The style JSON at `url`, or a StyleUnavailableError when it does not arrive whole within the
 * timeout, is not a MapLibre style (version 8 with sources and layers), or the request fails.
 */
export async function fetchStyle(
  url: string,
  options: { timeoutMs?: number; signal?: AbortSignal; fetch?: typeof fetch } = {},
): Promise<StyleSpecification> {
  const timeoutMs = options.timeoutMs ?? STYLE_CHECK_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new StyleUnavailableError(`no answer within ${timeoutMs} ms`)), timeoutMs);
  const outer = options.signal;
  const forward = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', forward, { once: true });
  try {
    const response = await (options.fetch ?? fetch)(url, { signal: controller.signal, headers: { accept: 'application/json' } });
    if (!response.ok) throw new StyleUnavailableError(`HTTP ${response.status}`);
    const style: unknown = await response.json();
    if (!isObject(style) || style['version'] !== 8 || !isObject(style['sources']) || !Array.isArray(style['layers'])) {
      throw new StyleUnavailableError('not a MapLibre style');
    }
    return style as unknown as StyleSpecification;
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
