/**
 * The real-time map's base map in real Chromium, with styles served by this test (this machine has
 * no internet access, so OpenFreeMap is exercised only as the fallback, in map.e2e.test.ts):
 * MAP_STYLE_URL's style is drawn with its own credits; a satellite style offered beside it is
 * chosen with the keyboard; a style that never answers, or whose tiles fail in MapLibre, gives way
 * to the offline map within seconds. The self-hosted street map is drawn from a test archive in the
 * runtime's base map folder (test/support/basemap-fixture.ts), read in ranges on the app's origin.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namedFlavor } from '@protomaps/basemaps';
import mqtt from 'mqtt';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { demoImei } from '../../infra/local/seed';
import { mapEn } from '../../shared/i18n/features/map/en';
import type { MapConfig } from '../../shared/schemas/tracking';
import { OFFLINE_COLORS } from '../../web/src/features/map/offline-style';
import { DESKTOP, PHONE, SHOTS_DIR, axeViolations, logInThroughForm, openPage, poll, startBrowserApp, stopBrowserApp, type App, photograph, settle } from '../support/browser';
import { writeBasemapFolder } from '../support/basemap-fixture';
import { commonestColour, countColour, hexRgb } from '../support/pixels';

const STREETS_BACKGROUND = '#e5d9f2';
const SATELLITE_BACKGROUND = '#2b4a33';
/** Demo units of vehicle type car. */
const CAR_COLOR = '#1c7ed6';

let app: App;
let browser: Browser;
let styles: Server;
let stylesUrl: string;
/** The runtime's base map folder: empty when it starts (the server offers MAP_STYLE_URL's style), filled after. */
let basemapDir: string;
const tracker = new Map<string, mqtt.MqttClient>();

/** A MapLibre style of a background and one "road" through Stockholm, with credits of its own. */
function testStyle(name: string, background: string) {
  return {
    version: 8,
    name,
    sources: {
      roads: {
        type: 'geojson',
        attribution: `${name} © e2e`,
        data: {
          type: 'Feature',
          properties: {},
          geometry: {
            type: 'LineString',
            coordinates: [
              [17.9, 59.3],
              [18.2, 59.37],
            ],
          },
        },
      },
    },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': background } },
      { id: 'roads', type: 'line', source: 'roads', paint: { 'line-color': '#ffffff', 'line-width': 6 } },
    ],
  };
}

/** A style whose vector tiles answer 500: MapLibre loads it, then fails on its tiles. */
function brokenTilesStyle(base: string) {
  return {
    version: 8,
    sources: { tiles: { type: 'vector', tiles: [`${base}/tiles/{z}/{x}/{y}.pbf`], attribution: 'Broken tiles' } },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#ff00ff' } },
      { id: 'water', type: 'fill', source: 'tiles', 'source-layer': 'water', paint: { 'fill-color': '#0000ff' } },
    ],
  };
}

beforeAll(async () => {
  styles = createServer((req, res) => {
    // The web app is on another origin (port).
    res.setHeader('access-control-allow-origin', '*');
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/streets.json') return json(testStyle('Test streets', STREETS_BACKGROUND));
    if (req.url === '/satellite.json') return json(testStyle('Test satellite', SATELLITE_BACKGROUND));
    if (req.url === '/broken-tiles.json') return json(brokenTilesStyle(stylesUrl));
    if (req.url === '/hangs.json') return; // never answers
    res.writeHead(500).end();
  });
  await new Promise<void>((ready) => styles.listen(0, '127.0.0.1', ready));
  stylesUrl = `http://127.0.0.1:${(styles.address() as AddressInfo).port}`;
  // Read by the runtime's handlers (GET /user/map/config) and its Content-Security-Policy.
  process.env['MAP_STYLE_URL'] = `${stylesUrl}/streets.json`;
  basemapDir = mkdtempSync(join(tmpdir(), 'basemap-'));
  process.env['BASEMAP_DIR'] = basemapDir;
  ({ app, browser } = await startBrowserApp());
  writeBasemapFolder(basemapDir);
  const imei = demoImei(0);
  tracker.set(imei, await mqtt.connectAsync(app.mqttUrl, { clientId: imei, reconnectPeriod: 0 }));
  await tracker.get(imei)?.publishAsync(`trackers/${imei}/telemetry`, JSON.stringify({ ts: Date.now() - 60_000, lat: 59.3326, lon: 18.0649, spd: 0, ign: false, sat: 9 }), { qos: 1 });
});

afterAll(async () => {
  for (const client of tracker.values()) await client.endAsync();
  await stopBrowserApp({ app, browser });
  delete process.env['MAP_STYLE_URL'];
  delete process.env['BASEMAP_DIR'];
  rmSync(basemapDir, { recursive: true, force: true });
  styles.closeAllConnections();
  await new Promise((done) => styles.close(done));
});

const logIn = (page: Page) => logInThroughForm(page, app.url);

/**
 * A poll for what MapLibre's workers draw from parsed data: an archive's tiles, or the offline
 * map's 20 MB of land. It takes 1 to 3 s here with the cores shared with ten busy loops, and two
 * such steps passed the browser tests' usual 10 s in one CI run on a slower machine.
 */
const drawn = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 250 });

/**
 * Records the blob URLs the page's main thread fetches. A whole fleet's units reach MapLibre as a
 * blob URL after a change of base map, which its workers read themselves
 * (web/src/features/map/maplibre-worker-patch.ts); one fetched here went through the main thread
 * instead, parsed and copied to a worker: the map's longest tasks while loading.
 */
const RECORD_BLOB_FETCHES = `(() => {
  const native = window.fetch;
  window.__blobFetches = [];
  window.fetch = function (input, init) {
    const url = String(input instanceof Request ? input.url : input);
    if (url.startsWith('blob:')) window.__blobFetches.push(url);
    return native.call(this, input, init);
  };
})();`;
const blobFetches = (page: Page) => page.evaluate(() => (window as unknown as { __blobFetches: string[] }).__blobFetches);

/**
 * Records MapLibre's loads of a GeoJSON source from a URL (its `LD` message with a `request`) and
 * whether the worker's answer carried the loaded data back: maplibre-worker-patch.ts leaves it
 * out, so the page never receives a fleet's collection again. Both names are MapLibre's own; the
 * test also expects the loads to be seen, so that a MapLibre that renamed them fails here.
 */
const RECORD_URL_LOADS = `(() => {
  const Native = window.Worker;
  window.__urlLoads = [];
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      const loads = new Map();
      const post = this.postMessage.bind(this);
      this.postMessage = (message, options) => {
        if (message && message.type === 'LD' && message.data && message.data.request) loads.set(message.id, message.data.source);
        return post(message, options);
      };
      this.addEventListener('message', (event) => {
        const answer = event.data;
        if (!answer || answer.type !== '<response>' || !loads.has(answer.id)) return;
        window.__urlLoads.push({ source: loads.get(answer.id), dataSent: Boolean(answer.data && 'data' in answer.data) });
        loads.delete(answer.id);
      });
    }
  };
})();`;
const urlLoads = (page: Page) => page.evaluate(() => (window as unknown as { __urlLoads: Array<{ source: string; dataSent: boolean }> }).__urlLoads);

const map = (page: Page) => page.getByTestId('realtime-map');
const basemap = (page: Page) => map(page).getAttribute('data-basemap');
/** Pixels of the offline map's land colour on the map's canvas. */
const landPixels = async (page: Page) => countColour(browser, await map(page).locator('canvas').screenshot(), hexRgb(OFFLINE_COLORS.land));
const credits = (page: Page) => map(page).locator('.maplibregl-ctrl-attrib-inner').textContent();

/** The map config as the server answers it, with the base maps of `change` instead, if given. */
async function configRoute(page: Page, change?: (config: MapConfig) => MapConfig) {
  const seen: { config?: MapConfig; at?: number } = {};
  await page.route('**/api/v1/user/map/config', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { success: boolean; data: MapConfig };
    seen.config = body.data;
    const data = change ? change(body.data) : body.data;
    await route.fulfill({ response, json: { ...body, data } });
    seen.at = Date.now();
  });
  return seen;
}

describe('base map', () => {
  it('draws the configured style with its credits, and switches to satellite from the keyboard', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    onTestFinished(() => context.close());
    const streets = `${stylesUrl}/streets.json`;
    const satellite = `${stylesUrl}/satellite.json`;
    const seen = await configRoute(page, (config) => ({ ...config, styles: [...(config.styles ?? []), { id: 'satellite', url: satellite }] }));
    await page.addInitScript({ content: RECORD_BLOB_FETCHES });
    await page.addInitScript({ content: RECORD_URL_LOADS });
    await logIn(page);

    await poll(() => basemap(page)).toBe('streets');
    // The server offers what MAP_STYLE_URL names, alone: the satellite style is this test's.
    expect(seen.config).toEqual({ styleUrl: streets, styles: [{ id: 'streets', url: streets }] });
    await poll(() => map(page).getAttribute('data-units-drawn')).toBe('1');
    await poll(async () => commonestColour(browser, await map(page).screenshot())).toBe(STREETS_BACKGROUND);
    expect(await credits(page)).toContain('Test streets © e2e');
    expect(await credits(page)).not.toContain('Natural Earth');

    const choice = page.getByRole('radiogroup', { name: mapEn.MapBaseMapLabel });
    expect(await choice.getByRole('radio', { name: mapEn.MapBaseMapStreets }).isChecked()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await photograph(page, join(SHOTS_DIR, 'map-basemap-streets-1280x800.png'));

    await choice.getByRole('radio', { name: mapEn.MapBaseMapStreets }).focus();
    await page.keyboard.press('ArrowRight');
    await poll(() => basemap(page)).toBe('satellite');
    expect(await choice.getByRole('radio', { name: mapEn.MapBaseMapSatellite }).isChecked()).toBe(true);
    await poll(async () => commonestColour(browser, await map(page).screenshot())).toBe(SATELLITE_BACKGROUND);
    await poll(() => credits(page)).toContain('Test satellite © e2e');
    // The units come back on the new style...
    await poll(async () => countColour(browser, await map(page).screenshot(), hexRgb(CAR_COLOR))).toBeGreaterThan(150);
    // ...given to its new source all at once, as a blob URL that MapLibre's workers read themselves,
    expect(await blobFetches(page)).toEqual([]);
    await drawn(async () => (await urlLoads(page)).map((load) => load.source)).toContain('units'); // UNITS_SOURCE of web/src/features/map/components/unit-layers.tsx
    // ...whose answers brought none of it back to the page.
    expect((await urlLoads(page)).filter((load) => load.dataSent)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await photograph(page, join(SHOTS_DIR, 'map-basemap-satellite-1280x800.png'));
    expect(errors).toEqual([]);
  });

  it('draws the self-hosted street map from its archive, read in ranges on the app origin, with OpenStreetMap credits', async () => {
    const { context, page, errors } = await openPage(browser, DESKTOP);
    onTestFinished(() => context.close());
    const basemapRequests: Array<{ path: string; range: string | undefined; status: number }> = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/basemap/')) basemapRequests.push({ path: decodeURIComponent(url.pathname), range: response.request().headers()['range'], status: response.status() });
    });
    const selfHosted = { id: 'streets', url: '/basemap/basemap.pmtiles', format: 'pmtiles' } as const;
    await configRoute(page, () => ({ styleUrl: null, styles: [selfHosted, { id: 'satellite', url: `${stylesUrl}/satellite.json` }] }));
    await logIn(page);

    await poll(() => basemap(page)).toBe('streets');
    await poll(() => map(page).getAttribute('data-units-drawn')).toBe('1');
    const flavor = namedFlavor('light');
    // The archive's land and lake in the Protomaps light colours (the base map named too: a failure
    // tells a slow draw from a fall-back to the offline map).
    await drawn(async () => ({ basemap: await basemap(page), colour: await commonestColour(browser, await map(page).screenshot()) })).toEqual({ basemap: 'streets', colour: flavor.earth });
    expect(await countColour(browser, await map(page).screenshot(), hexRgb(flavor.water))).toBeGreaterThan(1000);
    await poll(() => credits(page)).toContain('OpenStreetMap');
    // Only ranges of the archive on the app's own origin, and the sprite sheet beside it.
    const archiveReads = basemapRequests.filter((request) => request.path === selfHosted.url);
    expect(archiveReads.length).toBeGreaterThan(1);
    expect(archiveReads.filter((request) => request.status !== 206 || !/^bytes=\d+-\d+$/.test(request.range ?? ''))).toEqual([]);
    // Beside the archive, the sprite sheet and the fonts of the folder, each found.
    const assets = basemapRequests.filter((request) => request.path !== selfHosted.url);
    expect(assets.filter((request) => request.status !== 200 || !/^\/basemap\/(sprites\/light|fonts\/Noto Sans [A-Za-z]+\/\d+-\d+\.pbf$)/.test(request.path))).toEqual([]);
    expect(assets.map((request) => request.path)).toContain('/basemap/sprites/light.json');
    expect(await axeViolations(page)).toEqual([]);
    await photograph(page, join(SHOTS_DIR, 'map-basemap-self-hosted-1280x800.png'));

    // The satellite style beside it, and back.
    const choice = page.getByRole('radiogroup', { name: mapEn.MapBaseMapLabel });
    await choice.getByRole('radio', { name: mapEn.MapBaseMapStreets }).focus();
    await page.keyboard.press('ArrowRight');
    await poll(async () => commonestColour(browser, await map(page).screenshot())).toBe(SATELLITE_BACKGROUND);
    await page.keyboard.press('ArrowLeft');
    await drawn(async () => commonestColour(browser, await map(page).screenshot())).toBe(flavor.earth);
    expect(errors).toEqual([]);
  });

  // Two pages, each preparing and drawing the offline map's 20 MB of land: 18 s alone, 52 s in a full run.
  it('falls back to the offline map within seconds when a style never answers or its tiles fail', async () => {
    for (const name of ['hangs', 'broken-tiles']) {
      const { context, page, errors } = await openPage(browser, DESKTOP);
      onTestFinished(() => context.close());
      const seen = await configRoute(page, () => ({ styleUrl: null, styles: [{ id: 'streets', url: `${stylesUrl}/${name}.json` }] }));
      await page.addInitScript({ content: RECORD_BLOB_FETCHES });
      await page.addInitScript({ content: RECORD_URL_LOADS });
      const archiveReads: string[] = [];
      page.on('request', (request) => {
        if (/\/assets\/natural-earth-[^/]+\.pmtiles$/.test(request.url())) archiveReads.push(request.url());
      });
      await logIn(page);
      await expect.poll(() => basemap(page), { timeout: 20_000, interval: 100 }).toBe('offline');
      const seconds = (Date.now() - (seen.at ?? 0)) / 1000;
      console.info(`base map ${name}: offline map drawn ${seconds.toFixed(1)} s after the map config arrived`);
      // The check gives up after 2.5 s; the rest is the offline map's own preparation. The time is
      // printed, not asserted: CI load stretches it, and the poll above fails a style check that never gives up.
      await poll(() => credits(page)).toContain('Natural Earth');
      expect(await page.getByRole('radiogroup', { name: mapEn.MapBaseMapLabel }).count()).toBe(0);
      await poll(() => map(page).getAttribute('data-units-drawn')).toBe('1');
      // The offline map's land is drawn from its archive of tiles, fetched once and read in memory.
      await drawn(() => landPixels(page)).toBeGreaterThan(1000);
      expect(archiveReads, name).toHaveLength(1);
      // Units the first style had are given to the offline map's source as a blob URL, read by
      // MapLibre's workers (the first test); a style that failed before they came never had them.
      // Either way the page fetched no blob itself, and no answer brought units back to it.
      expect(await blobFetches(page), name).toEqual([]);
      expect((await urlLoads(page)).filter((load) => load.dataSent), name).toEqual([]);
      expect(errors, name).toEqual([]);
      await context.close();
    }
  }, 150_000);

  it('keeps the base map switch clear of the sheet and the zoom buttons on a phone', async () => {
    const { context, page, errors } = await openPage(browser, PHONE);
    onTestFinished(() => context.close());
    await configRoute(page, (config) => ({ ...config, styles: [...(config.styles ?? []), { id: 'satellite', url: `${stylesUrl}/satellite.json` }] }));
    await logIn(page);
    await poll(() => basemap(page)).toBe('streets');
    const choice = page.getByRole('radiogroup', { name: mapEn.MapBaseMapLabel });
    await poll(() => choice.isVisible()).toBe(true);
    const [switchBox, zoomBox, mapBox] = await Promise.all([choice.boundingBox(), page.locator('.maplibregl-ctrl-top-right').boundingBox(), map(page).boundingBox()]);
    expect(switchBox && zoomBox && mapBox).toBeTruthy();
    if (switchBox && zoomBox && mapBox) {
      expect(switchBox.x + switchBox.width).toBeLessThan(zoomBox.x);
      expect(switchBox.y).toBeGreaterThanOrEqual(mapBox.y);
    }
    await settle(page);
    expect(await axeViolations(page)).toEqual([]);
    await photograph(page, join(SHOTS_DIR, 'map-basemap-streets-390x844.png'));
    expect(errors).toEqual([]);
  });
});
