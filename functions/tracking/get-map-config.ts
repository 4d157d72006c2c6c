import { routes } from '../../shared/routes';
import { OPENFREEMAP_STYLE_URL, type BaseMap, type MapConfig } from '../../shared/schemas/tracking';
import { getEnv } from '../platform/env';
import { httpHandler } from '../platform/http';

/** An Amazon Location (geo-maps v2) style descriptor, as infra/constructs/maps-key.ts builds it. */
const GEO_MAPS_STYLE = /^https:\/\/maps\.geo\.[a-z0-9-]+\.amazonaws\.com\/v2\/styles\/([A-Za-z]+)\/descriptor$/;
/** geo-maps v2 styles of satellite imagery; Hybrid lays roads and labels over it. */
const IMAGERY_STYLES = new Set(['hybrid', 'satellite']);

/** The same descriptor URL (the key and other parameters kept) for another geo-maps style. */
function geoMapsStyle(url: URL, style: string): string {
  const other = new URL(url);
  other.pathname = other.pathname.replace(/\/styles\/[A-Za-z]+\//, `/styles/${style}/`);
  // Imagery has no colour scheme; geo-maps refuses the parameter for it.
  if (IMAGERY_STYLES.has(style.toLowerCase())) other.searchParams.delete('color-scheme');
  return other.toString();
}

/**
 * The base maps on offer, decided here only:
 * - BASEMAP_URL (the stack's by default, `/basemap/basemap.pmtiles` on the web app's own origin):
 *   the self-hosted Protomaps street map, first, with an Amazon Location satellite map after it when
 *   MAP_STYLE_URL is one; street tiles then cost CloudFront's bytes, not a price per tile;
 * - MAP_STYLE_URL an Amazon Location style (the stack's, with its API key): that style for streets
 *   and Hybrid (satellite imagery with roads and labels) for satellite, under the same key;
 * - any other MAP_STYLE_URL: that style alone;
 * - none: OpenFreeMap's public street style. The web app falls back to its offline map whenever a
 *   base map cannot be reached, so the embedded runtime works without internet access too.
 */
export function mapConfigFor(styleUrl: string | undefined, basemapUrl?: string): MapConfig {
  const styles = stylesFor(styleUrl);
  if (!basemapUrl) return { styleUrl: styleUrl ?? null, styles };
  const selfHosted: BaseMap = { id: 'streets', url: basemapUrl, format: 'pmtiles' };
  return { styleUrl: styleUrl ?? null, styles: [selfHosted, ...styles.filter((style) => style.id === 'satellite')] };
}

function stylesFor(styleUrl: string | undefined): BaseMap[] {
  if (!styleUrl) return [{ id: 'streets', url: OPENFREEMAP_STYLE_URL }];
  const url = new URL(styleUrl);
  const style = GEO_MAPS_STYLE.exec(`${url.origin}${url.pathname}`)?.[1];
  if (!style) return [{ id: 'streets', url: styleUrl }];
  return IMAGERY_STYLES.has(style.toLowerCase())
    ? [
        { id: 'satellite', url: styleUrl },
        { id: 'streets', url: geoMapsStyle(url, 'Standard') },
      ]
    : [
        { id: 'streets', url: styleUrl },
        { id: 'satellite', url: geoMapsStyle(url, 'Hybrid') },
      ];
}

export const handler = httpHandler(routes.getMapConfig, async () => {
  const env = getEnv();
  return mapConfigFor(env.MAP_STYLE_URL, env.BASEMAP_URL);
});
