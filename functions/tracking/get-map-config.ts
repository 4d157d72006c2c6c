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
 * - MAP_STYLE_URL an Amazon Location style (the stack's, with its API key): that style for streets
 *   and Hybrid (satellite imagery with roads and labels) for satellite, under the same key;
 * - any other MAP_STYLE_URL: that style alone;
 * - none: OpenFreeMap's public street style. The web app falls back to its offline map whenever a
 *   style cannot be reached, so the embedded runtime works without internet access too.
 */
export function mapConfigFor(styleUrl: string | undefined): MapConfig {
  if (!styleUrl) return { styleUrl: null, styles: [{ id: 'streets', url: OPENFREEMAP_STYLE_URL }] };
  const url = new URL(styleUrl);
  const style = GEO_MAPS_STYLE.exec(`${url.origin}${url.pathname}`)?.[1];
  if (!style) return { styleUrl, styles: [{ id: 'streets', url: styleUrl }] };
  const styles: BaseMap[] = IMAGERY_STYLES.has(style.toLowerCase())
    ? [
        { id: 'satellite', url: styleUrl },
        { id: 'streets', url: geoMapsStyle(url, 'Standard') },
      ]
    : [
        { id: 'streets', url: styleUrl },
        { id: 'satellite', url: geoMapsStyle(url, 'Hybrid') },
      ];
  return { styleUrl, styles };
}

export const handler = httpHandler(routes.getMapConfig, async () => mapConfigFor(getEnv().MAP_STYLE_URL));
