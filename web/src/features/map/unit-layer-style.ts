/**
 * The GPU layers of the units source (components/unit-layers.tsx): each cluster or unit as a
 * circle, the cluster's count or the unit's symbol and status dot on it, the heading arrow of a
 * moving unit (its status mark), a ring around the selected one, and at street zoom the unit's name
 * below it.
 */
import type { ExpressionSpecification } from 'maplibre-gl';
import type { LayerProps } from 'react-map-gl/maplibre';
import {
  CLUSTER_RADII,
  CLUSTER_RIM,
  CLUSTER_STEPS,
  COUNT_PREFIX,
  GLYPH_PREFIX,
  HEADING_ARROW,
  LABEL_PREFIX,
  UNIT_IMAGE_SIZE,
  UNIT_RADIUS,
  UNIT_RIM,
} from './map-images';

export const UNIT_LAYERS = {
  selected: 'unit-selected',
  labels: 'unit-labels',
  circles: 'unit-circles',
  symbols: 'unit-symbols',
  heading: 'unit-heading',
} as const;
/** Layers a click selects from. */
export const INTERACTIVE_UNIT_LAYERS = [UNIT_LAYERS.circles, UNIT_LAYERS.symbols];

/** Names are drawn from this zoom on: street level, where units stand apart. */
export const LABEL_MIN_ZOOM = 13;
/** An offline unit's circle is drawn faded. */
export const OFFLINE_OPACITY = 0.5;
/**
 * The label's top edge below the unit's centre: clear of the unit's own image (half of it, plus
 * the 2 px MapLibre pads every icon with for collisions), which it would otherwise collide with.
 */
const LABEL_OFFSET = UNIT_IMAGE_SIZE / 2 + 3;

const isCluster: ExpressionSpecification = ['has', 'point_count'];
const isUnit: ExpressionSpecification = ['!', isCluster];
const isOffline: ExpressionSpecification = ['==', ['get', 'status'], 'offline'];

/**
 * The layers for the selected unit, dimmed while a history replay is shown.
 *
 * Clusters and units share one circle layer and one symbol layer, their differences in `case`
 * expressions. MapLibre compiles a shader program the first time it draws a layer with a new mix of
 * constant and data-driven paint properties; with a layer of their own, units were first drawn
 * when one left its cluster during live updates, and the compile took 30 to 115 ms of the main
 * thread (bench:map, SwiftShader). Shared layers are compiled with the first clusters, and draw
 * with half the draw calls.
 *
 * Cluster counts and unit symbols are always drawn and take part in the collision test; the names
 * come later in MapLibre's placement (lower layers are placed after higher ones) and are left out
 * where they would cover a marker, a cluster or another name. The selected unit's name goes first.
 */
export function unitLayers(selected: string | null, dimmed: boolean): LayerProps[] {
  const opacity = dimmed ? 0.3 : 1;
  return [
    {
      id: UNIT_LAYERS.selected,
      type: 'circle',
      filter: ['all', isUnit, ['==', ['get', 'imei'], selected ?? '']],
      paint: {
        'circle-radius': 22,
        'circle-color': ['get', 'color'],
        'circle-opacity': 0.25 * opacity,
        'circle-stroke-width': 3,
        'circle-stroke-color': ['get', 'color'],
        'circle-stroke-opacity': opacity,
      },
    },
    {
      id: UNIT_LAYERS.labels,
      type: 'symbol',
      minzoom: LABEL_MIN_ZOOM,
      filter: isUnit,
      layout: {
        'icon-image': ['concat', LABEL_PREFIX, ['get', 'name']],
        'icon-anchor': 'top',
        'icon-offset': [0, LABEL_OFFSET],
        'icon-padding': 0,
        'icon-allow-overlap': false,
        'icon-ignore-placement': false,
        'symbol-sort-key': ['case', ['==', ['get', 'imei'], selected ?? ''], 0, 1],
      },
      paint: { 'icon-opacity': opacity },
    },
    {
      id: UNIT_LAYERS.circles,
      type: 'circle',
      paint: {
        'circle-color': ['case', isCluster, ['step', ['get', 'point_count'], '#228be6', CLUSTER_STEPS[0], '#1971c2', CLUSTER_STEPS[1], '#1864ab'], ['get', 'color']],
        'circle-radius': ['case', isCluster, ['step', ['get', 'point_count'], CLUSTER_RADII[0], CLUSTER_STEPS[0], CLUSTER_RADII[1], CLUSTER_STEPS[1], CLUSTER_RADII[2]], UNIT_RADIUS],
        'circle-stroke-width': ['case', isCluster, CLUSTER_RIM, UNIT_RIM],
        'circle-stroke-color': '#ffffff',
        'circle-opacity': ['case', isOffline, OFFLINE_OPACITY * opacity, opacity],
        'circle-stroke-opacity': opacity,
      },
    },
    {
      id: UNIT_LAYERS.symbols,
      type: 'symbol',
      layout: {
        'icon-image': [
          'case',
          isCluster,
          ['concat', COUNT_PREFIX, ['get', 'point_count_abbreviated']],
          ['concat', GLYPH_PREFIX, ['get', 'symbol'], ':', ['get', 'status']],
        ],
        // Every cluster and unit is drawn, whatever it overlaps; names keep clear of them.
        'icon-allow-overlap': true,
        'icon-ignore-placement': false,
      },
      paint: { 'icon-opacity': opacity },
    },
    {
      id: UNIT_LAYERS.heading,
      type: 'symbol',
      // Moving and heard from lately: an offline unit's last heading is no news.
      filter: ['all', isUnit, ['==', ['get', 'status'], 'moving']],
      layout: {
        'icon-image': HEADING_ARROW,
        'icon-rotate': ['get', 'heading'],
        'icon-rotation-alignment': 'map',
        // Ahead of the circle in the direction of travel: the offset turns with the icon.
        'icon-offset': [0, -20],
        'icon-allow-overlap': true,
        'icon-ignore-placement': true,
      },
      paint: { 'icon-opacity': opacity },
    },
  ];
}
