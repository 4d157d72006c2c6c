/**
 * Reverse geocoding through the Geocoder port with an in-memory cache per function instance.
 *
 * - Key: the coordinate rounded to 4 decimals (about 11 m north-south, less east-west up here), and
 *   the language. A parked unit's fixes wander a few metres, so 5 decimals (1 m) would almost never
 *   hit; 11 m stays within one address on a street. The port is asked for the rounded coordinate,
 *   so every caller of one key gets the same answer whether it came from the cache or not.
 * - Answers are kept 24 hours (addresses rarely change; Amazon Location's IntendedUse Storage, which
 *   the AWS adapter uses, allows keeping them), at most 10 000 keys, least recently used out first.
 *   "No address here" is an answer too and is kept; a failed call is not, so the next one retries.
 * - Concurrent requests for one key share one call.
 *
 * In memory rather than a table: the hits that matter are the same map view asking again, which
 * lands on a warm instance; a shared table would pay a read and a write per miss for little more.
 */
import type { Language } from '../../shared/schemas/common';
import type { Address, Geocoder } from '../platform/ports';

export const GEOCODE_DECIMALS = 4;
const DEFAULT_TTL_MS = 24 * 3600_000;
const DEFAULT_MAX_ENTRIES = 10_000;

interface Entry {
  answer: Promise<Address | null>;
  expires: number;
}

export interface GeocodeCache {
  reverse(geocoder: Geocoder, lat: number, lon: number, lang: Language, now: Date): Promise<Address | null>;
  size(): number;
}

export function roundCoordinate(value: number): number {
  const factor = 10 ** GEOCODE_DECIMALS;
  // `+ 0` turns -0 into 0, so both key the same entry.
  return Math.round(value * factor) / factor + 0;
}

export function createGeocodeCache(options: { ttlMs?: number; maxEntries?: number } = {}): GeocodeCache {
  const ttl = options.ttlMs ?? DEFAULT_TTL_MS;
  const max = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  // A Map iterates in insertion order; re-inserting on a hit makes that the recency order.
  const entries = new Map<string, Entry>();

  return {
    reverse(geocoder, lat, lon, lang, now) {
      const rLat = roundCoordinate(lat);
      const rLon = roundCoordinate(lon);
      const key = `${lang}:${rLat.toFixed(GEOCODE_DECIMALS)},${rLon.toFixed(GEOCODE_DECIMALS)}`;
      const at = now.getTime();
      const hit = entries.get(key);
      entries.delete(key);
      if (hit && hit.expires > at) {
        entries.set(key, hit);
        return hit.answer;
      }
      const answer = geocoder.reverse(rLat, rLon, lang);
      const entry: Entry = { answer, expires: at + ttl };
      entries.set(key, entry);
      answer.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      while (entries.size > max) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
      return answer;
    },
    size: () => entries.size,
  };
}
