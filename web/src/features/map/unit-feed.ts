/**
 * Feeds the units source of the map (components/unit-layers.tsx) from the unit store, outside
 * React: changes are coalesced (coalescer.ts) and handed to MapLibre as diffs of the units that
 * changed (`updateData` with the features' ids), at most `chunk` units at a time, the rest in the
 * next updates; live traffic at most four times a second (once a second at 50,000 units), the units
 * of a load as fast as they come (every FILL_INTERVAL_MS).
 *
 * A new base map replaces every source, ours with an empty one: the new source gets every unit in
 * one `setData`, so the units stay on the map across a style swap, and the drawn count never falls
 * back to a first chunk.
 */
import { createCoalescer } from './coalescer';
import { statusAt } from './status-cache';
import { sourceDiff, unitFeature, type UnitFeature } from './unit-features';
import type { UnitStore } from './unit-store';
import type { GeoJSONSourceDiff } from 'maplibre-gl';

/** The part of a GeoJSON source the feed uses. */
export interface FeedSource {
  /** The whole collection, by URL: MapLibre's worker fetches and parses it (maplibre-worker.ts). */
  setData(url: string): Promise<unknown> | unknown;
  updateData(diff: GeoJSONSourceDiff): Promise<unknown> | unknown;
}

/** The part of a MapLibre map the feed uses. */
export interface FeedMap {
  getSource(id: string): FeedSource | undefined;
  on(type: 'styledata', listener: () => void): unknown;
  off(type: 'styledata', listener: () => void): unknown;
}

export interface UnitFeedOptions {
  sourceId: string;
  /** At most this many units per source update. */
  chunk?: number;
  /** After each source update has reached the map, with the number of units it holds. */
  onDrawn(count: number): void;
  /** After each source update, with the features and those of the units that changed (null: all). */
  onFed?(features: ReadonlyMap<string, UnitFeature>, changed: ReadonlySet<string> | null): void;
  /** Where a whole collection is put for MapLibre's worker to fetch: a blob URL, revoked once loaded. */
  collectionUrl?(collection: GeoJSON.FeatureCollection): { url: string; revoke(): void };
  intervalMs?: (units: number, filling: boolean) => number;
  frame?: (run: () => void) => void;
  timer?: (run: () => void, ms: number) => () => void;
  now?: () => number;
}

/**
 * The least time between two source updates of live traffic: 250 ms (four a second) up to 12,500
 * units, then one millisecond more per 50 units, up to a second at 50,000. Each update costs
 * MapLibre's worker a new clustering of every unit and the main thread a reload of the source's
 * tiles, however few units moved, so a large fleet's markers move less often to keep the page
 * responsive.
 */
export function feedIntervalMs(units: number): number {
  return Math.min(1000, Math.max(250, units / 50));
}

/**
 * While units are still coming in (a load, a new source), updates follow each other this closely:
 * the fleet is drawn as fast as its pages arrive, each update a chunk of new units.
 */
export const FILL_INTERVAL_MS = 250;

/**
 * At most this many units per source update: each is a structured copy to MapLibre's worker on the
 * main thread (some 30 ms for 10,000 new points on SwiftShader's 2 cores), the rest in the next.
 */
export const FEED_CHUNK = 10_000;

/** How often units are checked for a status that changed with time alone. */
const STATUS_CHECK_MS = 30_000;

/**
 * The collection as a blob URL: JSON.stringify on the main thread is a fraction of what handing
 * MapLibre the objects costs (its own serialisation walk and a structured copy of every feature:
 * more than a second at 50,000 units on a busy machine in bench:map).
 */
export function blobCollectionUrl(collection: GeoJSON.FeatureCollection): { url: string; revoke(): void } {
  const url = URL.createObjectURL(new Blob([JSON.stringify(collection)], { type: 'application/json' }));
  return { url, revoke: () => URL.revokeObjectURL(url) };
}

export interface UnitFeed {
  stop(): void;
}

export function startUnitFeed(map: FeedMap, store: UnitStore, options: UnitFeedOptions): UnitFeed {
  const chunk = options.chunk ?? FEED_CHUNK;
  const intervalOf = options.intervalMs ?? ((units: number, filling: boolean) => (filling ? FILL_INTERVAL_MS : feedIntervalMs(units)));
  const now = options.now ?? Date.now;
  const collectionUrl = options.collectionUrl ?? blobCollectionUrl;
  // The features as last handed to the map; rebuilt only for units that changed.
  const features = new Map<string, UnitFeature>();
  // The source the features were handed to: a new base map brings a new, empty one.
  let fed: FeedSource | undefined;
  // Units were left for the next update (a chunk was full): it comes as soon as a fill's would.
  let filling = true;
  // One update at a time: the next waits until the source has applied this one. MapLibre settles
  // an update's promise only once its queue of updates is empty, so while an update came every
  // interval, all of them settled together at the end: at 50,000 units the first markers were drawn
  // about 3 s after opening the map but reported (data-units-drawn) more than 7 s after. Waiting
  // also keeps the main thread from preparing updates the worker cannot take yet.
  let applying = false;
  // What changed while an update was being applied: undefined nothing, null everything.
  let deferred: Set<string> | null | undefined;
  let stopped = false;
  const defer = (marked: ReadonlySet<string> | null) => {
    if (marked === null || deferred === null) deferred = null;
    else for (const imei of marked) (deferred ??= new Set()).add(imei);
  };
  const replayDeferred = () => {
    const changed = deferred;
    deferred = undefined;
    if (stopped || changed === undefined) return;
    if (changed === null) feed.markAll();
    else for (const imei of changed) feed.mark(imei);
  };

  const feed = createCoalescer<string>(
    (marked) => {
      const source = map.getSource(options.sourceId);
      if (!source) {
        // The style is still loading; try again with everything.
        feed.markAll();
        return;
      }
      // A new source (a new base map) takes its units at once, whatever the old one still applies.
      if (applying && source === fed) {
        defer(marked);
        return;
      }
      const at = now();
      let drawing: Promise<unknown>;
      let changed: ReadonlySet<string> | null;
      if (source !== fed && features.size > 0) {
        // A new source (a new base map) in place of the one that had the units: all of them at once.
        fed = source;
        features.clear();
        for (const unit of store.all()) {
          const feature = unitFeature(unit, at);
          if (feature) features.set(unit.imei, feature);
        }
        changed = null;
        filling = false;
        const collection = collectionUrl({ type: 'FeatureCollection', features: [...features.values()] });
        drawing = Promise.resolve(source.setData(collection.url));
        void drawing.finally(collection.revoke);
      } else {
        fed = source;
        // Everything may have changed: every unit the store or the map has, compared one by one.
        let imeis = marked ? [...marked] : [...new Set([...store.all().map((unit) => unit.imei), ...features.keys()])];
        filling = imeis.length > chunk;
        if (filling) {
          for (const imei of imeis.slice(chunk)) feed.mark(imei);
          imeis = imeis.slice(0, chunk);
        }
        const changes = imeis.map((imei) => {
          const before = features.get(imei);
          const unit = store.get(imei);
          const after = unit ? unitFeature(unit, at) : null;
          if (after) features.set(imei, after);
          else features.delete(imei);
          return { before, after };
        });
        const diff = sourceDiff(changes);
        changed = new Set(imeis);
        drawing = Object.keys(diff).length ? Promise.resolve(source.updateData(diff)) : Promise.resolve();
      }
      const count = features.size;
      applying = true;
      void drawing
        .then(
          () => options.onDrawn(count),
          () => undefined,
        )
        .finally(() => {
          applying = false;
          replayDeferred();
        });
      options.onFed?.(features, changed);
    },
    {
      intervalMs: () => intervalOf(features.size, filling || features.size < store.size()),
      ...(options.frame ? { frame: options.frame } : {}),
      ...(options.timer ? { timer: options.timer } : {}),
      ...(options.now ? { now: options.now } : {}),
    },
  );
  feed.markAll();
  const unsubscribe = store.subscribe((imei) => (imei === null ? feed.markAll() : feed.mark(imei)));
  // A unit nobody heard from goes offline without any message saying so.
  const statusCheck = setInterval(() => {
    const at = now();
    for (const [imei, feature] of features) {
      const unit = store.get(imei);
      if (unit && statusAt(unit, at) !== feature.properties.status) feed.mark(imei);
    }
  }, STATUS_CHECK_MS);
  // A new base map replaces every source; react-map-gl adds ours again, empty.
  const onStyleData = () => {
    if (fed && map.getSource(options.sourceId) !== fed) feed.markAll();
  };
  map.on('styledata', onStyleData);
  return {
    stop() {
      stopped = true;
      unsubscribe();
      clearInterval(statusCheck);
      map.off('styledata', onStyleData);
      feed.cancel();
    },
  };
}
