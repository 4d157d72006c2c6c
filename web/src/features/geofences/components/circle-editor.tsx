/**
 * A circle on a map, edited by pointer and keyboard (geofences, places): click the map to place the
 * centre, drag the centre or the handle on the circle's edge, or type the radius. The centre is a
 * button that the arrow keys move; the handle is a slider the arrow keys widen or narrow (Shift:
 * ten times as far). A centre or radius set from outside (an address search, a saved zone) brings
 * the circle into view. Loaded with MapLibre; the map's label names it for screen readers.
 */
import 'maplibre-gl/dist/maplibre-gl.css';
import '../../map/map.css';
import '../geofences.css';
import { Button, Center, Group, Loader, NumberInput, Stack, Text } from '@mantine/core';
import IconFocus from '@tabler/icons-react/dist/esm/icons/IconFocus.mjs';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Layer, Map as MapView, Marker, NavigationControl, Source, useMap, type MapLayerMouseEvent, type MarkerDragEvent } from 'react-map-gl/maplibre';
import { BaseMapSwitch, BaseMapWatch } from '../../map/components/base-map-controls';
import { loadMapLibre } from '../../map/maplibre';
import { useBaseMap } from '../../map/use-base-map';
import { circleBounds, circleRing, clampRadius, destination, distanceM, nudge, roundCoordinate, type LatLon } from '../circle';

/** Spec section 9: the default map centre is in Stockholm. */
const STOCKHOLM = { longitude: 18.0686, latitude: 59.3293, zoom: 10 };
const ZONE_SOURCE = 'circle-editor-zone';

export interface CircleValue {
  center: LatLon;
  radius: number;
}

export interface CircleEditorProps {
  center: LatLon | null;
  /** Metres. A typed radius outside minRadius..maxRadius is handed on as typed (the form says why it is refused); dragging keeps within. */
  radius: number;
  onChange: (v: CircleValue) => void;
  minRadius: number;
  maxRadius: number;
  /** Names the map for screen readers. */
  label: string;
  /** An error of the radius (translated text), shown at its field. */
  radiusError?: string | undefined;
  /** An error of the centre (translated text), e.g. "place the centre". */
  centerError?: string | undefined;
  /** The radius field's label; default "Radius (m)". */
  radiusLabel?: string;
  /** Hide the radius field (the page shows its own). */
  hideRadiusInput?: boolean;
  /** The circle's colour. */
  color?: string;
  /** Where the map starts while there is no centre (default Stockholm), e.g. the unit's latest position. */
  initialCenter?: LatLon | null;
}

export function CircleEditor(props: CircleEditorProps) {
  const { center, radius, onChange, minRadius, maxRadius, label } = props;
  const { t } = useTranslation();
  const base = useBaseMap();
  // A radius typed before there is a centre waits for it.
  const [draftRadius, setDraftRadius] = useState<number | string>(radius);
  useEffect(() => setDraftRadius(radius), [radius]);
  // Changes made on the map itself do not move the camera; changes from outside do.
  const own = useRef<CircleValue | null>(null);
  const emit = (next: CircleValue, fromMap: boolean) => {
    own.current = fromMap ? next : null;
    onChange(next);
  };
  const drawnRadius = Number.isFinite(radius) && radius > 0 ? radius : minRadius;
  const color = props.color ?? '#1c7ed6';

  const zone = useMemo(
    () =>
      center
        ? {
            type: 'Feature' as const,
            properties: {},
            geometry: { type: 'Polygon' as const, coordinates: [circleRing(center, drawnRadius)] },
          }
        : { type: 'FeatureCollection' as const, features: [] },
    [center, drawnRadius],
  );
  const handle = center ? destination(center, 90, drawnRadius) : null;

  const mapLocale = useMemo(
    () => ({
      'Map.Title': label,
      'NavigationControl.ZoomIn': t('MapZoomIn'),
      'NavigationControl.ZoomOut': t('MapZoomOut'),
      'NavigationControl.ResetBearing': t('MapResetNorth'),
      'AttributionControl.ToggleAttribution': t('MapToggleAttribution'),
    }),
    [t, label],
  );
  const initialView = useMemo(
    () =>
      center
        ? { bounds: circleBounds(center, drawnRadius), fitBoundsOptions: { padding: 40, maxZoom: 16 } }
        : props.initialCenter
          ? { longitude: props.initialCenter.lon, latitude: props.initialCenter.lat, zoom: 14 }
          : STOCKHOLM,
    // Only the first render's view counts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  const placeAt = (at: LatLon, fromMap: boolean) => {
    const typed = typeof draftRadius === 'number' ? draftRadius : radius;
    emit({ center: { lat: roundCoordinate(at.lat), lon: roundCoordinate(at.lon) }, radius: center ? radius : typed }, fromMap);
  };
  const onMapClick = (event: MapLayerMouseEvent) => placeAt({ lat: event.lngLat.lat, lon: event.lngLat.lng }, true);
  const onCenterDrag = (event: MarkerDragEvent) => placeAt({ lat: event.lngLat.lat, lon: event.lngLat.lng }, true);
  const onHandleDrag = (event: MarkerDragEvent) => {
    if (!center) return;
    emit({ center, radius: clampRadius(distanceM(center, { lat: event.lngLat.lat, lon: event.lngLat.lng }), minRadius, maxRadius) }, true);
  };

  const centerKeys = (event: KeyboardEvent) => {
    if (!center) return;
    const step = Math.max(10, Math.round(drawnRadius / 10)) * (event.shiftKey ? 10 : 1);
    const moves: Record<string, [number, number]> = { ArrowUp: [0, step], ArrowDown: [0, -step], ArrowLeft: [-step, 0], ArrowRight: [step, 0] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    event.stopPropagation();
    emit({ center: nudge(center, move[0], move[1]), radius }, true);
  };
  const handleKeys = (event: KeyboardEvent) => {
    if (!center) return;
    const step = event.shiftKey ? 500 : 50;
    const changes: Record<string, number> = {
      ArrowUp: step,
      ArrowRight: step,
      ArrowDown: -step,
      ArrowLeft: -step,
      PageUp: 500,
      PageDown: -500,
      Home: -Infinity,
      End: Infinity,
    };
    const change = changes[event.key];
    if (change === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    const next = change === -Infinity ? minRadius : change === Infinity ? maxRadius : clampRadius(drawnRadius + change, minRadius, maxRadius);
    emit({ center, radius: next }, true);
  };

  return (
    <Stack gap="xs" className="geo-circle-editor">
      <div className="geo-map" data-testid="circle-editor-map" data-center={center ? `${center.lat},${center.lon}` : undefined} data-radius={radius}>
        {base.active.kind === 'remote' || base.active.kind === 'offline' ? (
          <MapView
            mapLib={loadMapLibre()}
            mapStyle={base.active.style}
            initialViewState={initialView}
            locale={mapLocale}
            attributionControl={{ compact: true }}
            dragRotate={false}
            touchPitch={false}
            cursor="crosshair"
            onClick={onMapClick}
            style={{ position: 'absolute', inset: 0 }}
          >
            <NavigationControl position="top-right" showCompass={false} />
            <BaseMapWatch active={base.active} onFail={base.fail} />
            <Source id={ZONE_SOURCE} type="geojson" data={zone}>
              <Layer id={`${ZONE_SOURCE}-fill`} type="fill" paint={{ 'fill-color': color, 'fill-opacity': 0.15 }} />
              <Layer id={`${ZONE_SOURCE}-line`} type="line" paint={{ 'line-color': color, 'line-width': 2 }} />
            </Source>
            {center ? (
              <Marker longitude={center.lon} latitude={center.lat} anchor="center" draggable onDrag={onCenterDrag}>
                <button
                  type="button"
                  className="geo-center-handle"
                  style={{ borderColor: color }}
                  aria-label={t('GeoEditorCenterHandle', { lat: center.lat.toFixed(5), lon: center.lon.toFixed(5) })}
                  onKeyDown={centerKeys}
                  onClick={(event) => event.stopPropagation()}
                  data-testid="circle-center"
                />
              </Marker>
            ) : null}
            {center && handle ? (
              <Marker longitude={handle.lon} latitude={handle.lat} anchor="center" draggable onDrag={onHandleDrag}>
                <div
                  role="slider"
                  tabIndex={0}
                  className="geo-radius-handle"
                  style={{ background: color }}
                  aria-label={t('GeoEditorRadiusHandle')}
                  aria-valuemin={minRadius}
                  aria-valuemax={maxRadius}
                  aria-valuenow={Math.round(drawnRadius)}
                  aria-valuetext={t('GeoEditorMetres', { value: Math.round(drawnRadius) })}
                  onKeyDown={handleKeys}
                  onClick={(event) => event.stopPropagation()}
                  data-testid="circle-radius-handle"
                />
              </Marker>
            ) : null}
            <FollowOutside center={center} radius={drawnRadius} fitRadius={clampRadius(drawnRadius, minRadius, maxRadius)} own={own} />
            {base.active.kind === 'remote' ? <BaseMapSwitch choices={base.choices} value={base.active.base.id} onChange={base.choose} /> : null}
            <CentreHereButton onPlace={(at) => placeAt(at, false)} />
          </MapView>
        ) : base.active.kind === 'failed' ? (
          <Center h="100%" p="md">
            <Text c="dimmed" ta="center">
              {t('MapBaseMapFailed')}
            </Text>
          </Center>
        ) : (
          <Center h="100%" role="status">
            <Loader role="progressbar" aria-label={t('Loading')} />
          </Center>
        )}
      </div>
      <Text size="sm" c={props.centerError ? 'var(--mantine-color-error)' : 'dimmed'} role={props.centerError ? 'alert' : undefined} data-testid="circle-editor-hint">
        {props.centerError ?? (center ? t('GeoEditorHint') : t('GeoEditorNoCenter'))}
      </Text>
      {props.hideRadiusInput ? null : (
        <NumberInput
          label={props.radiusLabel ?? t('GeoEditorRadius')}
          description={t('GeoEditorRadiusRange', { min: minRadius, max: maxRadius })}
          min={minRadius}
          max={maxRadius}
          step={50}
          clampBehavior="none"
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator={false}
          value={center ? radius : draftRadius}
          error={props.radiusError}
          onChange={(value) => {
            const typed = typeof value === 'number' ? value : value === '' ? '' : Number(value);
            if (center && typeof typed === 'number' && Number.isFinite(typed)) emit({ center, radius: typed }, false);
            else setDraftRadius(typed);
          }}
          data-testid="circle-radius-input"
          style={{ maxWidth: 240 }}
        />
      )}
    </Stack>
  );
}

/** Brings the circle into view (its radius within the limits, so a half-typed radius does not zoom in) when it was set from outside the map. */
function FollowOutside({ center, radius, fitRadius, own }: { center: LatLon | null; radius: number; fitRadius: number; own: { current: CircleValue | null } }) {
  const { current: map } = useMap();
  const lat = center?.lat;
  const lon = center?.lon;
  useEffect(() => {
    if (!map || lat === undefined || lon === undefined) return;
    const mine = own.current;
    if (mine && mine.center.lat === lat && mine.center.lon === lon && mine.radius === radius) return;
    map.fitBounds(circleBounds({ lat, lon }, fitRadius), { padding: 40, maxZoom: 16, duration: 300 });
  }, [map, lat, lon, radius, fitRadius, own]);
  // A phone turned or a window narrowed: a circle that no longer fits is brought back into view.
  useEffect(() => {
    if (!map || lat === undefined || lon === undefined) return;
    const bounds = circleBounds({ lat, lon }, fitRadius);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refit = () => {
      const view = map.getBounds();
      const contained = view.contains(bounds[0]) && view.contains(bounds[1]);
      // Lost in a view far wider than itself (the map was fitted while its box was still growing).
      const tiny = (bounds[1][0] - bounds[0][0]) * 10 < view.getEast() - view.getWest();
      if (contained && !tiny) return;
      map.fitBounds(bounds, { padding: 40, maxZoom: 16, duration: 0 });
    };
    // Once the box has settled: a layout transition resizes it many times on the way.
    const settled = () => {
      clearTimeout(timer);
      timer = setTimeout(refit, 200);
    };
    map.on('resize', settled);
    return () => {
      clearTimeout(timer);
      map.off('resize', settled);
    };
  }, [map, lat, lon, fitRadius]);
  return null;
}

/** "Centre here": places the centre in the middle of the map (the way to place it without a pointer). */
function CentreHereButton({ onPlace }: { onPlace: (at: LatLon) => void }) {
  const { t } = useTranslation();
  const { current: map } = useMap();
  return (
    <Group className="geo-center-here">
      <Button
        size="xs"
        variant="white"
        leftSection={<IconFocus size={14} aria-hidden />}
        onClick={() => {
          if (!map) return;
          const c = map.getCenter();
          onPlace({ lat: c.lat, lon: c.lng });
        }}
        data-testid="circle-center-here"
      >
        {t('GeoEditorCenterHere')}
      </Button>
    </Group>
  );
}
