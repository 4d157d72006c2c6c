import { describe, expect, it } from 'vitest';
import { BLOB_PROTOCOLS, fetchBlob, leaveOutLoadedGeoJson, protocolOf } from './maplibre-worker-patch';

describe("MapLibre's worker answers", () => {
  it('leaves the loaded GeoJSON out of the answer to a load from a URL, and nothing else', () => {
    const sent: unknown[] = [];
    const scope = { postMessage: (message: unknown) => void sent.push(message) };
    const heard = leaveOutLoadedGeoJson(scope);
    const land = { type: 'FeatureCollection', features: [] };
    heard(new MessageEvent('message', { data: { id: 'a', type: 'LD', data: { source: 'land', request: { url: 'blob:x' } } } }));
    heard(new MessageEvent('message', { data: { id: 'b', type: 'LD', data: { source: 'units', data: land } } }));
    heard(new MessageEvent('message', { data: { id: 'c', type: 'LT', data: { source: 'land' } } }));
    scope.postMessage({ id: 'a', type: '<response>', data: { data: land, resourceTiming: { land: [] } }, error: null });
    scope.postMessage({ id: 'b', type: '<response>', data: { data: land }, error: null });
    scope.postMessage({ id: 'c', type: '<response>', data: { data: land }, error: null });
    scope.postMessage({ id: 'a', type: '<response>', data: { data: land }, error: null });
    expect(sent).toEqual([
      { id: 'a', type: '<response>', data: { resourceTiming: { land: [] } }, error: null },
      { id: 'b', type: '<response>', data: { data: land }, error: null },
      { id: 'c', type: '<response>', data: { data: land }, error: null },
      // Each request is answered once: a later message with its id is not touched.
      { id: 'a', type: '<response>', data: { data: land }, error: null },
    ]);
  });
});

describe('blob URLs in MapLibre\'s worker', () => {
  it('are registered under the protocol MapLibre reads from a page\'s blob URL', () => {
    // A browser's blob URL carries its page's origin (Node's do not).
    for (const url of ['blob:http://127.0.0.1:3000/4f1c2d7e-0000-4000-8000-000000000000', 'blob:https://portal.example/4f1c2d7e-0000-4000-8000-000000000000']) {
      expect(BLOB_PROTOCOLS).toContain(protocolOf(url));
    }
  });

  it('are fetched there and answered as MapLibre asks: parsed JSON, text or bytes', async () => {
    const body = '{"type":"FeatureCollection","features":[]}';
    const url = URL.createObjectURL(new Blob([body], { type: 'application/json' }));
    const abort = new AbortController();
    expect(await fetchBlob({ url, type: 'json' }, abort)).toEqual({ data: { type: 'FeatureCollection', features: [] } });
    expect(await fetchBlob({ url, type: 'string' }, abort)).toEqual({ data: body });
    const bytes = (await fetchBlob({ url, type: 'arrayBuffer' }, abort)).data as ArrayBuffer;
    expect(new TextDecoder().decode(bytes)).toBe(body);
    URL.revokeObjectURL(url);
    await expect(fetchBlob({ url: 'blob:gone', type: 'json' }, abort, async () => new Response('', { status: 404 }))).rejects.toThrow('HTTP 404');
  });
});
