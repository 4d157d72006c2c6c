/**
 * The base map's controls inside the map: the streets/satellite switch when more than one base map
 * is on offer, and a watch that reports a style MapLibre cannot draw (its tiles, sprite or glyphs
 * fail while it loads) so that the page falls back to the next base map or the offline one.
 */
import { SegmentedControl } from '@mantine/core';
import type { ErrorEvent as MapErrorEvent } from 'maplibre-gl';
import { memo, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMap } from 'react-map-gl/maplibre';
import type { BaseMap, BaseMapId } from '../../../../../shared/schemas/tracking';
import type { ActiveBaseMap } from '../use-base-map';

/** A style that has not drawn its first complete frame within this long is trusted from then on. */
const WATCH_MS = 15_000;

const LABEL_KEYS = { streets: 'MapBaseMapStreets', satellite: 'MapBaseMapSatellite' } as const;

/** Reports the remote style as failed on an error of its own while it loads (until the map is first idle). */
export const BaseMapWatch = memo(function BaseMapWatch({ active, onFail }: { active: ActiveBaseMap; onFail(url: string): void }) {
  const { current } = useMap();
  const map = current?.getMap();
  useEffect(() => {
    if (!map || active.kind !== 'remote') return;
    const own = new Set(Object.keys(active.style.sources));
    const url = active.base.url;
    let watching = true;
    const stop = () => {
      watching = false;
      clearTimeout(timer);
      map.off('error', onError);
      map.off('idle', stop);
    };
    function onError(event: MapErrorEvent & { sourceId?: string }) {
      // The page's own sources (units, the history route) are not the base map's.
      if (!watching || (event.sourceId !== undefined && !own.has(event.sourceId))) return;
      console.warn(`base map ${url} failed in MapLibre`, event.error);
      stop();
      onFail(url);
    }
    const timer = setTimeout(stop, WATCH_MS);
    map.on('error', onError);
    map.on('idle', stop);
    return stop;
  }, [map, active, onFail]);
  return null;
});

/** Streets or satellite, as radio buttons over the map's upper left corner. */
export const BaseMapSwitch = memo(function BaseMapSwitch({ choices, value, onChange }: { choices: readonly BaseMap[]; value: BaseMapId; onChange(id: BaseMapId): void }) {
  const { t } = useTranslation();
  if (choices.length < 2) return null;
  return (
    <div className="rt-basemap-switch">
      <SegmentedControl
        size="xs"
        radius="md"
        aria-label={t('MapBaseMapLabel')}
        value={value}
        onChange={(id) => onChange(id as BaseMapId)}
        data={choices.map((base) => ({ value: base.id, label: t(LABEL_KEYS[base.id]) }))}
      />
    </div>
  );
});
