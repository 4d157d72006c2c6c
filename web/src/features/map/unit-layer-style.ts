/**
 * The GPU layers of the units source (components/unit-layers.tsx): each cluster or unit as a
 * circle, the cluster's count or the unit's symbol on it, the heading arrow of a moving unit, and a
 * ring around the selected one.
 */
import type { ExpressionSpecification } from 'maplibre-gl';
import type { LayerProps } from 'react-map-gl/maplibre';
import { COUNT_PREFIX, GLYPH_PREFIX, HEADING_ARROW } from './map-images';

export const UNIT_LAYERS = {
  selected: 'unit-selected',
  circles: 'unit-circles',
  symbols: 'unit-symbols',
  heading: 'unit-heading',
} as const;
/** Layers a click selects from. */
export const INTERACTIVE_UNIT_LAYERS = [UNIT_LAYERS.circles, UNIT_LAYERS.symbols];

const isCluster: ExpressionSpecification = ['has', 'point_count'];
const isUnit: ExpressionSpecification = ['!', isCluster];

/**
 * The layers for the selected unit, dimmed while a history replay is shown.
 *
 * Clusters and units share one circle layer and one symbol layer, their differences in `case`
 * expressions. MapLibre compiles a shader program the first time it draws a layer with a new mix of
 * constant and data-driven paint properties; with a layer of their own, units were first drawn
 * when one left its cluster during live updates, and the compile took 30 to 115 ms of the main
 * thread (bench:map, SwiftShader). Shared layers are compiled with the first clusters, and draw
 * with half the draw calls.
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
      id: UNIT_LAYERS.circles,
      type: 'circle',
      paint: {
        'circle-color': ['case', isCluster, ['step', ['get', 'point_count'], '#228be6', 25, '#1971c2', 250, '#1864ab'], ['get', 'color']],
        'circle-radius': ['case', isCluster, ['step', ['get', 'point_count'], 17, 25, 21, 250, 26], 13],
        'circle-stroke-width': ['case', isCluster, 3, 2],
        'circle-stroke-color': '#ffffff',
        'circle-opacity': opacity,
        'circle-stroke-opacity': opacity,
      },
    },
    {
      id: UNIT_LAYERS.symbols,
      type: 'symbol',
      layout: {
        'icon-image': ['case', isCluster, ['concat', COUNT_PREFIX, ['get', 'point_count_abbreviated']], ['concat', GLYPH_PREFIX, ['get', 'symbol']]],
        // Every cluster and unit is drawn, whatever it overlaps, so there is no collision work either.
        'icon-allow-overlap': true,
        'icon-ignore-placement': true,
      },
      paint: { 'icon-opacity': opacity },
    },
    {
      id: UNIT_LAYERS.heading,
      type: 'symbol',
      filter: ['all', isUnit, ['==', ['get', 'moving'], true]],
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
