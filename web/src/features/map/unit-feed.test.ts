import type { GeoJSONSourceDiff } from 'maplibre-gl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MapUnit } from '../../../../shared/schemas/tracking';
import { FILL_INTERVAL_MS, startUnitFeed, type FeedMap, type FeedSource } from './unit-feed';
import { createUnitStore } from './unit-store';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-03-10T08:30:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

const unit = (i: number): MapUnit => ({
  imei: `35693806${String(i).padStart(7, '0')}`,
  name: `Unit ${i}`,
  registrationNumber: null,
  vehicleType: 'car',
  color: '#1c7ed6',
  symbol: 'car',
  operatingMode: null,
  state: { ts: '2026-03-10T08:29:00.000Z', lat: 59.3, lon: 18 + i / 1000, speed: 0, heading: 0, ignition: false, movement: false, lastSeen: '2026-03-10T08:29:00.000Z' },
});

/** Collections handed over by URL, as the feed's blob URLs are (revoked ones are gone). */
const collections = new Map<string, GeoJSON.FeatureCollection>();
let urls = 0;
const collectionUrl = (collection: GeoJSON.FeatureCollection) => {
  const url = `blob:test/${++urls}`;
  collections.set(url, collection);
  return { url, revoke: () => void collections.delete(url) };
};

/** A GeoJSON source that keeps what it was given, by feature id (the IMEI). */
function fakeSource() {
  const points = new Map<string, GeoJSON.Feature>();
  const source: FeedSource & { points: typeof points } = {
    points,
    setData(url) {
      const data = collections.get(url);
      if (!data) throw new Error(`no collection at ${url}`);
      points.clear();
      for (const feature of data.features) points.set(String(feature.properties?.['imei']), feature);
      return Promise.resolve();
    },
    updateData(diff: GeoJSONSourceDiff) {
      for (const id of diff.remove ?? []) points.delete(String(id));
      for (const feature of diff.add ?? []) points.set(String(feature.properties?.['imei']), feature);
      for (const update of diff.update ?? []) {
        const feature = points.get(String(update.id));
        if (!feature) throw new Error(`update of a missing feature ${update.id}`);
        if (update.newGeometry) points.set(String(update.id), { ...feature, geometry: update.newGeometry });
      }
      return Promise.resolve();
    },
  };
  return source;
}

/** A map whose style (and so its units source) can be swapped, as a new base map does. */
function fakeMap() {
  let source: ReturnType<typeof fakeSource> | undefined = fakeSource();
  const listeners = new Set<() => void>();
  const map: FeedMap & { source(): typeof source; swapStyle(): void; addSource(): void } = {
    getSource: () => source,
    on: (_type, listener) => listeners.add(listener),
    off: (_type, listener) => listeners.delete(listener),
    source: () => source,
    swapStyle() {
      source = undefined;
      for (const listener of listeners) listener();
    },
    addSource() {
      source = fakeSource();
      for (const listener of listeners) listener();
    },
  };
  return map;
}

async function settle(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
}

describe('the units feed', () => {
  it('draws the units of a load in chunks as fast as they come, then every unit after a style swap at once', async () => {
    const store = createUnitStore();
    const map = fakeMap();
    const drawn: number[] = [];
    const feed = startUnitFeed(map, store, { sourceId: 'units', chunk: 4, onDrawn: (count) => drawn.push(count), frame: (run) => setTimeout(run, 16), collectionUrl });
    store.beginLoad();
    store.addPage(Array.from({ length: 10 }, (_, i) => unit(i)));
    store.endLoad();
    await settle(3 * (FILL_INTERVAL_MS + 16));
    expect(drawn).toEqual([4, 8, 10]);
    expect(map.source()?.points.size).toBe(10);

    // A new base map: the old source is gone, then react-map-gl adds an empty one.
    map.swapStyle();
    await settle(100);
    map.addSource();
    await settle(2000);
    expect(map.source()?.points.size).toBe(10);
    // Never fewer than every unit after the swap: not a first chunk of 4 and the rest later.
    expect(drawn.slice(3)).toEqual([10]);
    // The collection's URL is revoked once the source has it.
    expect(collections.size).toBe(0);

    // Live moves after the swap go to the new source as diffs.
    store.applyPosition({
      ...{ alt: null, extVolts: null, batVolts: null, din: {}, dout: {}, odometer: null, engineSeconds: null },
      ...unit(3).state!,
      type: 'position',
      imei: unit(3).imei,
      ts: '2026-03-10T08:29:30.000Z',
      lat: 59.4,
    });
    await settle(2000);
    expect((map.source()?.points.get(unit(3).imei)?.geometry as GeoJSON.Point).coordinates[1]).toBe(59.4);
    expect(drawn.at(-1)).toBe(10);
    feed.stop();
  });

  it('hands the source one update at a time and reports each count once the source has applied it', async () => {
    const store = createUnitStore();
    const map = fakeMap();
    const source = map.source()!;
    // The source applies an update only when the test says so, as MapLibre's worker answers when it has clustered.
    const pending: Array<() => void> = [];
    const sent: number[] = [];
    const apply = source.updateData.bind(source);
    source.updateData = (diff) => {
      sent.push(diff.add?.length ?? 0);
      return new Promise<void>((done) => pending.push(() => done(void apply(diff))));
    };
    const drawn: number[] = [];
    const feed = startUnitFeed(map, store, { sourceId: 'units', chunk: 4, onDrawn: (count) => drawn.push(count), frame: (run) => setTimeout(run, 16), collectionUrl });
    store.beginLoad();
    store.addPage(Array.from({ length: 10 }, (_, i) => unit(i)));
    await settle(5 * (FILL_INTERVAL_MS + 16));
    // The second chunk waits for the first to be applied, however long that takes.
    expect(sent).toEqual([4]);
    expect(drawn).toEqual([]);
    pending.shift()!();
    await settle(0);
    expect(drawn).toEqual([4]);
    await settle(FILL_INTERVAL_MS + 16);
    expect(sent).toEqual([4, 4]);
    // Units that arrive meanwhile are not lost: they follow once the update before them is applied.
    store.addPage([unit(10), unit(11)]);
    store.endLoad();
    await settle(5 * (FILL_INTERVAL_MS + 16));
    expect(sent).toEqual([4, 4]);
    pending.shift()!();
    await settle(FILL_INTERVAL_MS + 16);
    expect(drawn).toEqual([4, 8]);
    expect(sent).toEqual([4, 4, 4]);
    pending.shift()!();
    await settle(FILL_INTERVAL_MS + 16);
    expect(drawn).toEqual([4, 8, 12]);
    expect(source.points.size).toBe(12);
    expect(pending).toEqual([]);
    feed.stop();
  });

  it('keeps the drawn units when the whole store may have changed (a unit removed), sending only the difference', async () => {
    const store = createUnitStore();
    const map = fakeMap();
    const drawn: number[] = [];
    const feed = startUnitFeed(map, store, { sourceId: 'units', chunk: 4, onDrawn: (count) => drawn.push(count), frame: (run) => setTimeout(run, 16), collectionUrl });
    store.replaceAll(Array.from({ length: 10 }, (_, i) => unit(i)));
    await settle(2000);
    expect(drawn.at(-1)).toBe(10);
    const before = drawn.length;
    store.remove(unit(0).imei);
    await settle(5000);
    expect(map.source()?.points.size).toBe(9);
    expect(Math.min(...drawn.slice(before))).toBe(9);
    feed.stop();
  });
});
