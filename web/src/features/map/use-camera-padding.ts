/**
 * On a phone the unit panel is a sheet over the lower part of the map. The map's camera padding is
 * kept equal to the part the sheet covers, so that everything MapLibre centres (flyTo, easeTo, a
 * followed unit) or fits (fitBounds: the units at start, a history route) lands in the part left
 * visible. When the covered part changes the view keeps still, and then the focus (the selected
 * unit, or the history route) is brought back into sight if the sheet now hides it.
 */
import type { LngLatBoundsLike, Map as MapLibreMap } from 'maplibre-gl';
import { useEffect, useRef, type RefObject } from 'react';
import type { MapRef } from 'react-map-gl/maplibre';

/** As map.css: below this width the panel is a bottom sheet over the map. */
export const PHONE_QUERY = '(max-width: 767.98px)';
/** What must stay in sight: a position, or the bounds [west, south, east, north] of a route. */
export type CameraFocus = { point: [number, number] } | { bounds: [number, number, number, number] } | null;

/** Pixels kept free around the focus. */
const MARGIN = 32;
/** As the history route's own fit (history-layers.tsx). */
const FIT_PADDING = 48;
const FIT_MAX_ZOOM = 16;

/** How much of the map the panel covers from below, in CSS pixels (none beside the map on a wide screen). */
export function coveredBottom(mapBox: DOMRect, panel: DOMRect, phone: boolean): number {
  if (!phone) return 0;
  return Math.max(0, Math.min(mapBox.height, Math.round(mapBox.bottom - panel.top)));
}

/** Whether every point lies inside the map minus its padding and a margin. */
export function inSight(points: ReadonlyArray<{ x: number; y: number }>, size: { width: number; height: number }, bottom: number, margin = MARGIN): boolean {
  return points.every(({ x, y }) => x >= margin && x <= size.width - margin && y >= margin && y <= size.height - bottom - margin);
}

function bringIntoSight(map: MapLibreMap, focus: CameraFocus, bottom: number): void {
  if (!focus) return;
  const container = map.getContainer();
  const size = { width: container.clientWidth, height: container.clientHeight };
  const duration = window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 0 : 400;
  if ('point' in focus) {
    if (!inSight([map.project(focus.point)], size, bottom)) map.easeTo({ center: focus.point, duration });
    return;
  }
  const [west, south, east, north] = focus.bounds;
  const corners = [map.project([west, north]), map.project([east, south])];
  if (inSight(corners, size, bottom)) return;
  const bounds: LngLatBoundsLike = [
    [west, south],
    [east, north],
  ];
  map.fitBounds(bounds, { padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM, duration });
}

/**
 * Keeps the map's bottom padding equal to the part `panel` covers of `mapBox` on a phone. `focus`
 * is read when the padding changes.
 */
export function useCameraPadding(map: MapRef | undefined, mapBox: RefObject<HTMLElement | null>, panel: RefObject<HTMLElement | null>, focus: () => CameraFocus): void {
  const latestFocus = useRef(focus);
  useEffect(() => {
    latestFocus.current = focus;
  });

  useEffect(() => {
    const box = mapBox.current;
    const sheet = panel.current;
    if (!map || !box || !sheet) return;
    const instance = map.getMap();
    const phone = window.matchMedia(PHONE_QUERY);
    let waiting = false;
    let disposed = false;
    const update = () => {
      if (disposed) return;
      // A flight under way keeps its course; the padding follows when it ends. Not within its
      // moveend: a flight that interrupts another ends the first one as it starts, and would then
      // land where it aimed before the padding changed.
      if (instance.isMoving()) {
        if (!waiting) {
          waiting = true;
          instance.once('moveend', () => {
            waiting = false;
            setTimeout(update, 0);
          });
        }
        return;
      }
      const bottom = coveredBottom(box.getBoundingClientRect(), sheet.getBoundingClientRect(), phone.matches);
      if (Math.abs((instance.getPadding().bottom ?? 0) - bottom) < 2) return;
      const container = instance.getContainer();
      // The place now in the middle of the visible part stays there.
      const center = instance.unproject([container.clientWidth / 2, (container.clientHeight - bottom) / 2]);
      instance.jumpTo({ center, padding: { top: 0, left: 0, right: 0, bottom } });
      bringIntoSight(instance, latestFocus.current(), bottom);
    };
    const observer = new ResizeObserver(update);
    observer.observe(box);
    observer.observe(sheet);
    phone.addEventListener('change', update);
    update();
    return () => {
      disposed = true;
      observer.disconnect();
      phone.removeEventListener('change', update);
    };
  }, [map, mapBox, panel]);
}
