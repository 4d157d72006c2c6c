import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basemapArchive } from '../../../../test/support/basemap-fixture';
import { baseMapsOf, checkArchive, chooseBaseMap, fetchStyle, loadBaseStyle, StyleUnavailableError, unreachableBaseMaps, type SessionStore } from './base-map';

const STYLE = { version: 8, sources: { roads: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } }, layers: [] };

const ARCHIVE = basemapArchive();
let server: Server;
let base: string;
/** A refused connection: a port that was free a moment ago. */
let closedPort: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/style.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(STYLE));
    if (req.url === '/not-a-style.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"version":7}');
    if (req.url === '/broken.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"version":8,');
    if (req.url === '/hangs.json') return; // never answers
    if (req.url === '/basemap/basemap.pmtiles' || req.url === '/whole.pmtiles' || req.url === '/other.pmtiles') {
      const bytes = req.url === '/other.pmtiles' ? Buffer.from('not an archive at all') : Buffer.from(ARCHIVE);
      const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
      if (!range || req.url === '/whole.pmtiles') return void res.writeHead(200).end(bytes);
      const [start, end] = [Number(range[1]), Number(range[2])];
      return void res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${bytes.length}` }).end(bytes.subarray(start, end + 1));
    }
    if (req.url === '/slow-body.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.write('{"version":8,');
    }
    res.writeHead(500).end();
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const probe = createServer();
  await new Promise<void>((ready) => probe.listen(0, '127.0.0.1', ready));
  closedPort = String((probe.address() as AddressInfo).port);
  await new Promise((done) => probe.close(done));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

/** The promise's outcome and how long it took. */
async function timed<T>(promise: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const start = performance.now();
  try {
    const value = await promise;
    return { ms: performance.now() - start, value };
  } catch (error) {
    return { ms: performance.now() - start, error };
  }
}

describe('style check', () => {
  it('hands over a reachable MapLibre style', async () => {
    expect(await fetchStyle(`${base}/style.json`)).toEqual(STYLE);
  });

  it('gives up on a style that does not answer in time, or whose body stalls', async () => {
    for (const path of ['/hangs.json', '/slow-body.json']) {
      const result = await timed(fetchStyle(`${base}${path}`, { timeoutMs: 300 }));
      expect(result.error, path).toBeInstanceOf(StyleUnavailableError);
      expect(result.ms, path).toBeGreaterThanOrEqual(250);
      // The servers never finish, so any bound proves the timeout; this one leaves room for a busy machine.
      expect(result.ms, path).toBeLessThan(5_000);
    }
  });

  it('fails at once when nothing listens, on an error status, and on anything but a style', async () => {
    // With a long timeout, only an answer that does not wait for it comes back in time.
    const refused = await timed(fetchStyle(`http://127.0.0.1:${closedPort}/style.json`, { timeoutMs: 20_000 }));
    expect(refused.error).toBeInstanceOf(StyleUnavailableError);
    expect(refused.ms).toBeLessThan(10_000);
    for (const path of ['/missing.json', '/not-a-style.json', '/broken.json']) {
      await expect(fetchStyle(`${base}${path}`), path).rejects.toBeInstanceOf(StyleUnavailableError);
    }
  });
});

describe('base map choice', () => {
  const streets = { id: 'streets', url: 'https://a.example/streets' } as const;
  const satellite = { id: 'satellite', url: 'https://a.example/satellite' } as const;

  it('reads the styles on offer, or the one style URL of an older server', () => {
    expect(baseMapsOf(undefined)).toEqual([]);
    expect(baseMapsOf({ styleUrl: null })).toEqual([]);
    expect(baseMapsOf({ styleUrl: streets.url })).toEqual([streets]);
    expect(baseMapsOf({ styleUrl: null, styles: [streets, satellite] })).toEqual([streets, satellite]);
  });

  it('takes the chosen style, the first one that works when it failed, and the offline map when none does', () => {
    const offered = [streets, satellite];
    expect(chooseBaseMap(offered, null, new Set())).toEqual(streets);
    expect(chooseBaseMap(offered, 'satellite', new Set())).toEqual(satellite);
    expect(chooseBaseMap(offered, 'satellite', new Set([satellite.url]))).toEqual(streets);
    expect(chooseBaseMap(offered, 'streets', new Set([streets.url]))).toEqual(satellite);
    expect(chooseBaseMap(offered, 'streets', new Set([streets.url, satellite.url]))).toBeNull();
    expect(chooseBaseMap([], null, new Set())).toBeNull();
  });
});

describe('unreachable styles', () => {
  const memoryStore = (initial: Record<string, string> = {}): SessionStore & { data: Record<string, string> } => {
    const data = { ...initial };
    return { data, getItem: (key) => data[key] ?? null, setItem: (key, value) => void (data[key] = value) };
  };

  it('remembers a failed style for the session, so the next map does not wait for it again', () => {
    const store = memoryStore();
    const first = unreachableBaseMaps(store);
    expect(first.list()).toEqual([]);
    first.add('https://tiles.example/streets');
    first.add('https://tiles.example/streets');
    expect(first.list()).toEqual(['https://tiles.example/streets']);
    // A new page load of the same session.
    expect(unreachableBaseMaps(store).list()).toEqual(['https://tiles.example/streets']);
  });

  it('forgets a damaged entry and keeps working without storage', () => {
    expect(unreachableBaseMaps(memoryStore({ 'portal.unreachableBaseMaps': '{oops' })).list()).toEqual([]);
    expect(unreachableBaseMaps(memoryStore({ 'portal.unreachableBaseMaps': '[1,"https://a.example/s"]' })).list()).toEqual(['https://a.example/s']);
    const full: SessionStore = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } };
    const memory = unreachableBaseMaps(full);
    memory.add('https://a.example/s');
    expect(memory.list()).toEqual(['https://a.example/s']);
    const none = unreachableBaseMaps(null);
    none.add('https://a.example/s');
    expect(none.list()).toEqual(['https://a.example/s']);
  });
});

describe('self-hosted base map', () => {
  it('styles an archive that answers in ranges with the Protomaps layers, labels in the language, on absolute URLs', async () => {
    const page = `${base}/user/realtime-tracking`;
    const style = await loadBaseStyle({ id: 'streets', url: '/basemap/basemap.pmtiles', format: 'pmtiles' }, 'sv', { pageUrl: page });
    expect(style.sources).toEqual({ protomaps: expect.objectContaining({ type: 'vector', url: `pmtiles://${base}/basemap/basemap.pmtiles` }) });
    expect(style.glyphs).toBe(`${base}/basemap/fonts/{fontstack}/{range}.pbf`);
    expect(style.sprite).toBe(`${base}/basemap/sprites/light`);
    expect(style.layers.map((layer) => layer.id)).toEqual(expect.arrayContaining(['earth', 'water', 'roads_major', 'places_locality']));
    // Place names in Swedish, and in Norwegian for a Norwegian user.
    const names = (s: typeof style) => JSON.stringify(s.layers.find((layer) => layer.id === 'places_locality'));
    expect(names(style)).toContain('name:sv');
    expect(names(await loadBaseStyle({ id: 'streets', url: '/basemap/basemap.pmtiles', format: 'pmtiles' }, 'no', { pageUrl: page }))).toContain('name:no');
  });

  it('refuses a server that ignores the range, a file that is not an archive, and a missing one', async () => {
    await expect(checkArchive(`${base}/basemap/basemap.pmtiles`)).resolves.toBeUndefined();
    await expect(checkArchive(`${base}/whole.pmtiles`)).rejects.toThrow(/not served in ranges/);
    await expect(checkArchive(`${base}/other.pmtiles`)).rejects.toThrow(/not a PMTiles v3 archive/);
    await expect(checkArchive(`${base}/missing.pmtiles`)).rejects.toThrow(/HTTP 500/);
    await expect(loadBaseStyle({ id: 'streets', url: '/whole.pmtiles', format: 'pmtiles' }, 'en', { pageUrl: base })).rejects.toBeInstanceOf(StyleUnavailableError);
  });
});
