import IconFlag3Filled from '@tabler/icons-react/dist/esm/icons/IconFlag3Filled.mjs';
import IconFlagFilled from '@tabler/icons-react/dist/esm/icons/IconFlagFilled.mjs';
import IconNavigationFilled from '@tabler/icons-react/dist/esm/icons/IconNavigationFilled.mjs';
import '../history.css';
import { CloseButton, Group, Text } from '@mantine/core';
import { memo, useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Layer, Marker, Popup, Source, useMap } from 'react-map-gl/maplibre';
import type { Position } from '../../../../../shared/schemas/tracking';
import { useHistoryFormat } from '../format';
import { routeBounds } from '../playback';
import type { Stop } from '../stops';
import type { HistoryPlayback } from '../use-history-playback';
import { stopTexts } from './stop-texts';

const ROUTE_SOURCE = 'history-route';
const FIT_PADDING = 48;
/** Closer than this shows little more than the street, however short the route. */
const FIT_MAX_ZOOM = 16;

/** The route, its start, end and stops, and the moving playback marker; a child of the map. */
export function HistoryLayers({ playback }: { playback: HistoryPlayback }) {
  const { positions, current, unit, stops, openStop, setOpenStop } = playback;
  const color = unit?.color ?? '#1c7ed6';
  if (positions.length === 0) return null;
  const open = openStop === null ? undefined : stops[openStop];
  return (
    <>
      <Route positions={positions} color={color} />
      <FitToRoute positions={positions} />
      <StopMarkers stops={stops} openStop={openStop} onToggle={setOpenStop} />
      {open && openStop !== null ? <StopPopup stop={open} number={openStop + 1} onClose={() => setOpenStop(null)} /> : null}
      {current ? (
        <Marker longitude={current.lon} latitude={current.lat} anchor="center" rotation={current.heading ?? 0} rotationAlignment="map">
          <PlaybackMarker color={color} withHeading={current.heading !== null} />
        </Marker>
      ) : null}
    </>
  );
}

/** Memoised on the positions: playback re-renders every frame, the route only on a new load. */
const Route = memo(function Route({ positions, color }: { positions: readonly Position[]; color: string }) {
  const { t } = useTranslation();
  const format = useHistoryFormat();
  const line = useMemo(
    () => ({
      type: 'Feature' as const,
      properties: {},
      geometry: { type: 'LineString' as const, coordinates: positions.map((p) => [p.lon, p.lat]) },
    }),
    [positions],
  );
  const first = positions[0] as Position;
  const last = positions[positions.length - 1] as Position;
  return (
    <>
      {positions.length > 1 ? (
        <Source id={ROUTE_SOURCE} type="geojson" data={line}>
          <Layer
            id={`${ROUTE_SOURCE}-casing`}
            type="line"
            layout={{ 'line-join': 'round', 'line-cap': 'round' }}
            paint={{ 'line-color': '#ffffff', 'line-width': 8, 'line-opacity': 0.9 }}
          />
          <Layer
            id={`${ROUTE_SOURCE}-line`}
            type="line"
            layout={{ 'line-join': 'round', 'line-cap': 'round' }}
            paint={{ 'line-color': color, 'line-width': 4 }}
          />
        </Source>
      ) : null}
      {/* Start points from the left, end from the right: a round trip shows both flags side by side. */}
      <Marker longitude={first.lon} latitude={first.lat} anchor="bottom-right">
        <Pin label={t('HistoryRouteStart', { time: format.time(Date.parse(first.ts)) })} background="#2f9e44" tip="right">
          <IconFlagFilled size={16} aria-hidden />
        </Pin>
      </Marker>
      {positions.length > 1 ? (
        <Marker longitude={last.lon} latitude={last.lat} anchor="bottom-left">
          <Pin label={t('HistoryRouteEnd', { time: format.time(Date.parse(last.ts)) })} background="#c92a2a" tip="left">
            <IconFlag3Filled size={16} aria-hidden />
          </Pin>
        </Marker>
      ) : null}
    </>
  );
});

/**
 * A numbered marker where the unit stood still, named with its times and duration; pressing it
 * opens the stop's details (the list in the panel numbers the stops alike). Memoised on the stops:
 * playback re-renders every frame.
 */
const StopMarkers = memo(function StopMarkers({ stops, openStop, onToggle }: { stops: readonly Stop[]; openStop: number | null; onToggle(stop: number | null): void }) {
  const { t } = useTranslation();
  const format = useHistoryFormat();
  return (
    <>
      {stops.map((stop, i) => {
        const { label } = stopTexts(stop, i + 1, format, t);
        return (
          <Marker
            key={stop.first}
            longitude={stop.lon}
            latitude={stop.lat}
            anchor="center"
            onClick={(event) => {
              // The map's own click would select a unit under the marker.
              event.originalEvent.stopPropagation();
              onToggle(openStop === i ? null : i);
            }}
          >
            <button type="button" className="history-stop-number" aria-label={label} title={label} aria-expanded={openStop === i}>
              {i + 1}
            </button>
          </Marker>
        );
      })}
    </>
  );
});

/** A stop's arrival, departure and duration over the map. */
function StopPopup({ stop, number, onClose }: { stop: Stop; number: number; onClose(): void }) {
  const { t } = useTranslation();
  const format = useHistoryFormat();
  const texts = stopTexts(stop, number, format, t);
  return (
    <Popup
      longitude={stop.lon}
      latitude={stop.lat}
      // No anchor: MapLibre puts the details on whichever side of the stop has room in the map.
      offset={16}
      closeButton={false}
      closeOnClick={false}
      focusAfterOpen={false}
      maxWidth="320px"
      className="history-stop-popup"
      onClose={onClose}
    >
      <div role="group" aria-label={texts.label}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" fw={600}>
            {t('HistoryStopNumber', { number })}
          </Text>
          <CloseButton size="sm" aria-label={t('HistoryCloseStop')} onClick={onClose} />
        </Group>
        <dl className="history-stop-facts">
          <dt>{t('HistoryStopArrived')}</dt>
          <dd>{texts.arrived}</dd>
          <dt>{t('HistoryStopLeft')}</dt>
          <dd>{texts.left}</dd>
          <dt>{t('HistoryStopDuration')}</dt>
          <dd>{texts.duration}</dd>
        </dl>
      </div>
    </Popup>
  );
}

/** A round pin whose one square corner (`tip`, at the bottom) marks the spot. */
function Pin({ label, background, tip, children }: { label: string; background: string; tip: 'left' | 'right'; children: ReactNode }) {
  return (
    <div
      role="img"
      aria-label={label}
      title={label}
      style={{
        display: 'grid',
        placeItems: 'center',
        width: 26,
        height: 26,
        borderRadius: tip === 'left' ? '50% 50% 50% 0' : '50% 50% 0 50%',
        background,
        color: '#fff',
        border: '2px solid #fff',
        boxShadow: '0 1px 4px rgba(0, 0, 0, 0.4)',
      }}
    >
      {children}
    </div>
  );
}

function PlaybackMarker({ color, withHeading }: { color: string; withHeading: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      role="img"
      aria-label={t('HistoryPlaybackPosition')}
      style={{
        display: 'grid',
        placeItems: 'center',
        width: 30,
        height: 30,
        borderRadius: '50%',
        background: color,
        color: '#fff',
        border: '3px solid #fff',
        boxShadow: '0 1px 6px rgba(0, 0, 0, 0.5)',
      }}
    >
      {withHeading ? <IconNavigationFilled size={16} aria-hidden /> : null}
    </div>
  );
}

/** Brings the whole route into view once per load (the user may pan freely afterwards). */
function FitToRoute({ positions }: { positions: readonly Position[] }) {
  const { current: map } = useMap();
  useEffect(() => {
    const bounds = routeBounds(positions);
    if (!map || !bounds) return;
    const [west, south, east, north] = bounds;
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    map.fitBounds(
      [
        [west, south],
        [east, north],
      ],
      { padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM, duration: still ? 0 : 600 },
    );
  }, [map, positions]);
  return null;
}
