/**
 * The units on the map: one clustered GeoJSON source with the layers of unit-layer-style.ts. The
 * source is fed from the unit store, not through React: changes are coalesced and handed to
 * MapLibre at most four times a second (once a second at 50,000 units), however many live messages
 * came, as a diff of the units that changed, at most FEED_CHUNK at a time (the whole collection,
 * in parts, only when a new base map replaced the source). Statuses also change with time alone (a silent unit goes offline), so
 * they are checked again every STATUS_CHECK_MS.
 */
import type { GeoJSONSource } from 'maplibre-gl';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { Layer, Source, useMap } from 'react-map-gl/maplibre';
import { createCoalescer } from '../coalescer';
import { registerUnitImages } from '../map-images';
import { statusAt } from '../status-cache';
import { FEATURE_ID, sourceDiff, unitFeature, type UnitFeature } from '../unit-features';
import { unitLayers } from '../unit-layer-style';
import type { UnitStore } from '../unit-store';

export const UNITS_SOURCE = 'units';
/** Above this zoom no unit is in a cluster; flying to a unit goes past it. */
export const CLUSTER_MAX_ZOOM = 14;
/**
 * The least time between two source updates: 250 ms (four a second) up to 12,500 units, then one
 * millisecond more per 50 units, up to a second at 50,000. Each update costs MapLibre's worker a new
 * clustering of every unit and the main thread a reload of the source's tiles, however few units
 * moved, so a large fleet's markers move less often to keep the page responsive.
 */
export function feedIntervalMs(units: number): number {
  return Math.min(1000, Math.max(250, units / 50));
}
/**
 * At most this many units per source update: the whole collection of a new source and a page of
 * units reach MapLibre's worker in parts of this size (each a structured copy on the main thread),
 * the rest in the next updates.
 */
export const FEED_CHUNK = 5000;
/** How often units are checked for a status that changed with time alone. */
const STATUS_CHECK_MS = 30_000;

const EMPTY: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: [] };

interface UnitLayersProps {
  store: UnitStore;
  selected: string | null;
  follow: boolean;
  /** History is shown: the live units step back. */
  dimmed: boolean;
  /** After each source update, with the number of units in it. */
  onDrawn(count: number): void;
}

function bounds(features: Iterable<UnitFeature>): [[number, number], [number, number]] {
  let [west, south, east, north] = [180, 90, -180, -90];
  for (const { geometry } of features) {
    const [lon = 0, lat = 0] = geometry.coordinates;
    west = Math.min(west, lon);
    east = Math.max(east, lon);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
  }
  return [
    [west, south],
    [east, north],
  ];
}

/**
 * Memoised: the page re-renders with every frame of a history replay, the layers only when selected
 * or dimmed change. A followed unit is kept in the middle of the map's padding (the part of the map
 * a phone's sheet leaves visible; see use-camera-padding.ts).
 */
export const UnitLayers = memo(function UnitLayers({ store, selected, follow, dimmed, onDrawn }: UnitLayersProps) {
  const { current } = useMap();
  const map = current?.getMap();
  const [imagesReady, setImagesReady] = useState(false);
  // Read by the feed, which lives as long as the map and must not restart when these change.
  const latest = useRef({ selected, follow, dimmed, onDrawn });
  useEffect(() => {
    latest.current = { selected, follow, dimmed, onDrawn };
  });

  useEffect(() => {
    if (!map) return;
    const undo = registerUnitImages(map);
    setImagesReady(true);
    return undo;
  }, [map]);

  useEffect(() => {
    if (!map) return;
    // The features as last handed to the map, in the store's order; rebuilt only for units that changed.
    const features = new Map<string, UnitFeature>();
    let fitted = false;
    // The source the features were handed to: a new base map brings a new, empty one.
    let fed: GeoJSONSource | undefined;
    const feed = createCoalescer<string>(
      (marked) => {
        const source = map.getSource<GeoJSONSource>(UNITS_SOURCE);
        if (!source) {
          // The style is still loading; try again with everything.
          feed.markAll();
          return;
        }
        const changed = source === fed ? marked : null;
        fed = source;
        const now = Date.now();
        let drawing: Promise<void>;
        if (changed === null) {
          // A new answer or a new source: the whole collection, its first part now and the rest as changes.
          features.clear();
          const all: UnitFeature[] = [];
          for (const unit of store.all()) {
            const feature = unitFeature(unit, now);
            if (feature) all.push(feature);
          }
          const first = all.slice(0, FEED_CHUNK);
          for (const feature of first) features.set(feature.properties.imei, feature);
          for (let i = FEED_CHUNK; i < all.length; i++) feed.mark((all[i] as UnitFeature).properties.imei);
          drawing = source.setData({ type: 'FeatureCollection', features: first });
        } else {
          let imeis = [...changed];
          if (imeis.length > FEED_CHUNK) {
            for (const imei of imeis.slice(FEED_CHUNK)) feed.mark(imei);
            imeis = imeis.slice(0, FEED_CHUNK);
          }
          const changes = imeis.map((imei) => {
            const before = features.get(imei);
            const unit = store.get(imei);
            const after = unit ? unitFeature(unit, now) : null;
            if (after) features.set(imei, after);
            else features.delete(imei);
            return { before, after };
          });
          const diff = sourceDiff(changes);
          drawing = Object.keys(diff).length ? source.updateData(diff) : Promise.resolve();
        }
        const count = features.size;
        void drawing.then(() => latest.current.onDrawn(count));
        const list = features.values();

        if (!fitted && count) {
          fitted = true;
          // A history opened before the map was ready (a deep link) has fitted its own route.
          if (!latest.current.dimmed) map.fitBounds(bounds(list), { padding: 64, maxZoom: 13, duration: 0 });
        }
        const { selected: followed, follow: following } = latest.current;
        const target = followed ? features.get(followed) : undefined;
        if (following && target && (changed === null || changed.has(target.properties.imei))) {
          map.easeTo({ center: target.geometry.coordinates as [number, number], duration: 600 });
        }
      },
      { intervalMs: () => feedIntervalMs(features.size) },
    );
    feed.markAll();
    const unsubscribe = store.subscribe((imei) => (imei === null ? feed.markAll() : feed.mark(imei)));
    // A unit nobody heard from goes offline without any message saying so.
    const statusCheck = setInterval(() => {
      const now = Date.now();
      for (const [imei, feature] of features) {
        const unit = store.get(imei);
        if (unit && statusAt(unit, now) !== feature.properties.status) feed.mark(imei);
      }
    }, STATUS_CHECK_MS);
    // A new base map replaces every source; react-map-gl adds ours again, empty.
    const onStyleData = () => {
      if (fed && map.getSource(UNITS_SOURCE) !== fed) feed.markAll();
    };
    map.on('styledata', onStyleData);
    return () => {
      unsubscribe();
      clearInterval(statusCheck);
      map.off('styledata', onStyleData);
      feed.cancel();
    };
  }, [map, store]);

  // Following starts by going to the unit, not only at its next move.
  useEffect(() => {
    const position = follow && selected ? store.get(selected)?.state : null;
    if (map && position) map.easeTo({ center: [position.lon, position.lat], duration: 600 });
  }, [map, store, follow, selected]);

  const layers = useMemo(() => unitLayers(selected, dimmed), [selected, dimmed]);
  if (!imagesReady) return null;
  return (
    <Source id={UNITS_SOURCE} type="geojson" data={EMPTY} promoteId={FEATURE_ID} cluster clusterRadius={48} clusterMaxZoom={CLUSTER_MAX_ZOOM}>
      {layers.map((layer) => (
        <Layer key={layer.id} {...layer} />
      ))}
    </Source>
  );
});
