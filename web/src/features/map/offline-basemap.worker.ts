/**
 * Fetches Natural Earth's countries topology (a hashed asset of the build, cached by the browser)
 * and converts it to the offline map's GeoJSON off the main thread. The JSON goes back as
 * transferable bytes, which the page hands to MapLibre as blob URLs: MapLibre's own worker parses
 * them, so the main thread neither converts nor copies them.
 */
import countriesUrl from 'world-atlas/countries-10m.json?url';
import { basemapGeoJson } from './offline-style';

export type BasemapWorkerAnswer = { land: ArrayBuffer; borders: ArrayBuffer } | { error: string };

const encoder = new TextEncoder();
const bytes = (value: unknown) => encoder.encode(JSON.stringify(value)).buffer as ArrayBuffer;

self.onmessage = async () => {
  try {
    const response = await fetch(countriesUrl);
    if (!response.ok) throw new Error(`countries topology: HTTP ${response.status}`);
    const { land, borders } = basemapGeoJson(await response.json());
    const answer: BasemapWorkerAnswer = { land: bytes(land), borders: bytes(borders) };
    self.postMessage(answer, { transfer: [answer.land, answer.borders] });
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies BasemapWorkerAnswer);
  }
};
