/**
 * The units on the map: one clustered GeoJSON source with the layers of unit-layer-style.ts. The
 * source is fed from the unit store by unit-feed.ts, not through React.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { Layer, Source, useMap } from 'react-map-gl/maplibre';
import { registerUnitImages } from '../map-images';
import { FEATURE_ID, type UnitFeature } from '../unit-features';
import { startUnitFeed, type FeedMap } from '../unit-feed';
import { unitLayers } from '../unit-layer-style';
import type { UnitStore } from '../unit-store';

export const UNITS_SOURCE = 'units';
/** Above this zoom no unit is in a cluster; flying to a unit goes past it. */
export const CLUSTER_MAX_ZOOM = 14;

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
    let fitted = false;
    const feed = startUnitFeed(map as unknown as FeedMap, store, {
      sourceId: UNITS_SOURCE,
      onDrawn: (count) => latest.current.onDrawn(count),
      onFed(features, changed) {
        if (!fitted && features.size) {
          fitted = true;
          // A history opened before the map was ready (a deep link) has fitted its own route.
          if (!latest.current.dimmed) map.fitBounds(bounds(features.values()), { padding: 64, maxZoom: 13, duration: 0 });
        }
        const { selected: followed, follow: following } = latest.current;
        const target = followed ? features.get(followed) : undefined;
        if (following && target && (changed === null || changed.has(target.properties.imei))) {
          map.easeTo({ center: target.geometry.coordinates as [number, number], duration: 600 });
        }
      },
    });
    return () => feed.stop();
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
