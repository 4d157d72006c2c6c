/**
 * The routes of the selected trips on one map (loaded lazily with MapLibre): each trip in its own
 * colour, with a numbered start (round) and stop (square), and a legend that names them and lists
 * each trip's congestion tax passages. The page checks the limits of spec sections 5 and 9 before
 * it opens this.
 */
import 'maplibre-gl/dist/maplibre-gl.css';
import { Alert, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Layer, Map as MapView, Marker, NavigationControl, Source, useMap } from 'react-map-gl/maplibre';
import { congestionReasonKey } from '../../../../../shared/congestion/reasons';
import type { Trip, TripPassage } from '../../../../../shared/schemas/trips';
import { browserTimeZone, errorMessage } from '../../../app/api-client';
import { BaseMapWatch } from '../../map/components/base-map-controls';
import { loadMapLibre } from '../../map/maplibre';
import { useBaseMap } from '../../map/use-base-map';
import { fetchTripPassages, fetchTripRoute } from '../api/trip-api';
import { useTripFormat } from '../format';
import { localDayOf } from '../../../../../shared/local-time';
import { LockedOrFailed } from '../../unit-lock/components/tracker-locked';

/** Ten colours that stay apart on street and satellite maps (at most 10 trips are shown). */
const ROUTE_COLORS = ['#1c7ed6', '#e8590c', '#2f9e44', '#ae3ec9', '#c92a2a', '#0c8599', '#f08c00', '#5f3dc4', '#d6336c', '#495057'];
const STOCKHOLM = { longitude: 18.0686, latitude: 59.3293, zoom: 10 };

interface RouteMapModalProps {
  trips: readonly Trip[];
  opened: boolean;
  onClose: () => void;
}

export default function RouteMapModal({ trips, opened, onClose }: RouteMapModalProps) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 40em)') ?? false;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('TripRoutesTitle', { count: trips.length })}
      size="xl"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': t('TripClose') }}
    >
      {opened ? <RouteMap trips={trips} /> : null}
    </Modal>
  );
}

function RouteMap({ trips }: { trips: readonly Trip[] }) {
  const { t } = useTranslation();
  const format = useTripFormat();
  const base = useBaseMap();
  const routes = useQueries({
    queries: trips.map((trip) => ({
      queryKey: ['trip-route', trip.id, trip.startTime, trip.stopTime],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchTripRoute(trip.id, signal),
      staleTime: Infinity,
    })),
    // Structurally shared: the same answers give the same object, so the lines below stay put.
    combine: (results) => ({
      data: results.map((r) => r.data),
      pending: results.some((r) => r.isPending),
      error: results.find((r) => r.isError)?.error ?? null,
    }),
  });
  const { pending, error } = routes;
  // Each trip's congestion tax passages, under its line of the legend (none: nothing shown).
  const passages = useQueries({
    queries: trips.map((trip) => ({
      queryKey: ['trip-passages', trip.id, trip.startTime, trip.stopTime],
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchTripPassages(trip.id, signal),
      staleTime: Infinity,
    })),
    combine: (results) => results.map((r) => r.data ?? []),
  });
  const sek = useMemo(() => new Intl.NumberFormat(format.locale, { style: 'currency', currency: 'SEK' }), [format.locale]);
  const passageText = (p: TripPassage) => {
    const passage = t('TripPassage', { time: format.time(p.time), station: p.station, direction: t(p.direction === 'in' ? 'TripPassageIn' : 'TripPassageOut'), amount: sek.format(p.amount) });
    return p.reason ? t('TripPassageReason', { passage, reason: t(congestionReasonKey(p.reason)) }) : passage;
  };
  const lines = useMemo(
    () =>
      trips.map((trip, i) => {
        const points = routes.data[i] ?? [];
        const coordinates = points.length > 0 ? points.map((p) => [p.lon, p.lat]) : [[trip.startLon, trip.startLat], [trip.stopLon, trip.stopLat]];
        return { trip, color: ROUTE_COLORS[i % ROUTE_COLORS.length] as string, coordinates };
      }),
    [trips, routes.data],
  );
  const mapLocale = useMemo(
    () => ({
      'Map.Title': t('TripRoutesMapLabel'),
      'NavigationControl.ZoomIn': t('MapZoomIn'),
      'NavigationControl.ZoomOut': t('MapZoomOut'),
      'NavigationControl.ResetBearing': t('MapResetNorth'),
      'AttributionControl.ToggleAttribution': t('MapToggleAttribution'),
    }),
    [t],
  );

  return (
    <Stack gap="sm">
      {error ? (
        <LockedOrFailed error={error}>
<Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
</LockedOrFailed>
      ) : null}
      <div className="triplog-map" data-testid="trip-routes-map" data-routes-loaded={pending ? undefined : String(trips.length)}>
        {base.active.kind === 'remote' || base.active.kind === 'offline' ? (
          <MapView
            mapLib={loadMapLibre()}
            mapStyle={base.active.style}
            initialViewState={STOCKHOLM}
            locale={mapLocale}
            attributionControl={{ compact: true }}
            dragRotate={false}
            style={{ position: 'absolute', inset: 0 }}
          >
            <NavigationControl position="top-right" showCompass={false} />
            <BaseMapWatch active={base.active} onFail={base.fail} />
            {lines.map((line, i) => (
              <Source
                key={line.trip.id}
                id={`trip-route-${i}`}
                type="geojson"
                data={{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: line.coordinates } }}
              >
                <Layer id={`trip-route-${i}-casing`} type="line" layout={{ 'line-join': 'round', 'line-cap': 'round' }} paint={{ 'line-color': '#ffffff', 'line-width': 7, 'line-opacity': 0.9 }} />
                <Layer id={`trip-route-${i}-line`} type="line" layout={{ 'line-join': 'round', 'line-cap': 'round' }} paint={{ 'line-color': line.color, 'line-width': 4 }} />
              </Source>
            ))}
            {lines.flatMap((line, i) => {
              const [startLon, startLat] = line.coordinates[0] as [number, number];
              const [stopLon, stopLat] = line.coordinates[line.coordinates.length - 1] as [number, number];
              // The start a round pin, the stop a square one, both with the trip's number.
              return [
                <RoutePin key={`${line.trip.id}-stop`} at={[stopLon, stopLat]} stop color={line.color} number={i + 1} label={t('TripRouteStopOf', { number: i + 1, time: format.time(line.trip.stopTime) })} />,
                <RoutePin key={`${line.trip.id}-start`} at={[startLon, startLat]} color={line.color} number={i + 1} label={t('TripRouteStartOf', { number: i + 1, time: format.time(line.trip.startTime) })} />,
              ];
            })}
            {pending ? null : <FitRoutes lines={lines} />}
          </MapView>
        ) : base.active.kind === 'failed' ? (
          <Center h="100%" p="md">
            <Text c="dimmed" ta="center">
              {t('MapBaseMapFailed')}
            </Text>
          </Center>
        ) : null}
        {pending || base.active.kind === 'loading' ? (
          <Center className="triplog-map-loading" role="status">
            <Loader role="progressbar" aria-label={t('Loading')} />
          </Center>
        ) : null}
      </div>
      <ol className="triplog-legend" aria-label={t('TripRoutesLegend')}>
        {lines.map((line, i) => (
          <li key={line.trip.id}>
            <Group gap={8} wrap="nowrap" align="flex-start">
              <span className="triplog-swatch" style={{ background: line.color }} aria-hidden>
                {i + 1}
              </span>
              <Text size="sm">
                {format.shortDay(localDayOf(Date.parse(line.trip.startTime), browserTimeZone()))} {format.time(line.trip.startTime)}–{format.time(line.trip.stopTime)} · {format.km(line.trip.distance)} ·{' '}
                {line.trip.startAddress ?? '–'} → {line.trip.stopAddress ?? '–'}
              </Text>
            </Group>
            {passages[i]?.length ? (
              <ul className="triplog-passages" aria-label={t('TripPassagesOf', { number: i + 1 })} data-testid="trip-passages">
                {passages[i]?.map((p) => (
                  <li key={`${p.time}-${p.station}`}>
                    <Text size="sm" c="dimmed">
                      {passageText(p)}
                    </Text>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
    </Stack>
  );
}

/** A trip's numbered pin on the map: round at its start, square at its stop. */
function RoutePin({ at, stop = false, color, number, label }: { at: [number, number]; stop?: boolean; color: string; number: number; label: string }) {
  return (
    <Marker longitude={at[0]} latitude={at[1]} anchor="center">
      <div className={stop ? 'triplog-map-pin triplog-map-pin-stop' : 'triplog-map-pin'} style={{ background: color }} role="img" aria-label={label}>
        {number}
      </div>
    </Marker>
  );
}

function FitRoutes({ lines }: { lines: ReadonlyArray<{ coordinates: number[][] }> }) {
  const { current: map } = useMap();
  useEffect(() => {
    if (!map) return;
    let west = Infinity;
    let south = Infinity;
    let east = -Infinity;
    let north = -Infinity;
    for (const line of lines) {
      for (const [lon = 0, lat = 0] of line.coordinates) {
        west = Math.min(west, lon);
        east = Math.max(east, lon);
        south = Math.min(south, lat);
        north = Math.max(north, lat);
      }
    }
    if (!Number.isFinite(west)) return;
    const fit = () =>
      map.fitBounds(
        [
          [west, south],
          [east, north],
        ],
        { padding: 40, maxZoom: 16, duration: 0 },
      );
    fit();
    // A phone turned, or the dialog going full screen: the routes stay in view.
    map.on('resize', fit);
    return () => {
      map.off('resize', fit);
    };
  }, [map, lines]);
  return null;
}
