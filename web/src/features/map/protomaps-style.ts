/**
 * The self-hosted street map's MapLibre style: the Protomaps basemap layers (`@protomaps/basemaps`,
 * the light flavour) over one PMTiles archive, read in ranges through the `pmtiles://` protocol
 * (maplibre.ts registers it), with labels in the user's language. The archive's folder also holds
 * the fonts and the sprite sheet the layers name (docs/operations.md, "The base map"), so every
 * request stays on the web app's own origin. Loaded only when such a base map is offered.
 */
import { layers, namedFlavor } from '@protomaps/basemaps';
import type { StyleSpecification } from 'maplibre-gl';
import type { Language } from '../../../../shared/schemas/common';

/** The source id the layers are built for. */
export const PROTOMAPS_SOURCE = 'protomaps';

const ATTRIBUTION = '<a href="https://protomaps.com">Protomaps</a> © <a href="https://openstreetmap.org/copyright">OpenStreetMap</a>';

/**
 * `archiveUrl` may be root-relative (`/basemap/basemap.pmtiles`): MapLibre and the PMTiles reader
 * need absolute URLs, so it is resolved against `pageUrl`. The portal's languages (en, sv, no)
 * are label languages of the Protomaps layers under the same codes.
 */
export function protomapsStyle(archiveUrl: string, language: Language, pageUrl: string): StyleSpecification {
  const archive = new URL(archiveUrl, pageUrl);
  const folder = new URL('./', archive).href;
  return {
    version: 8,
    glyphs: `${folder}fonts/{fontstack}/{range}.pbf`,
    sprite: `${folder}sprites/light`,
    sources: { [PROTOMAPS_SOURCE]: { type: 'vector', url: `pmtiles://${archive.href}`, attribution: ATTRIBUTION } },
    layers: layers(PROTOMAPS_SOURCE, namedFlavor('light'), { lang: language }),
  };
}
