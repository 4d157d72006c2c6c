/**
 * /user/realtime-tracking (spec section 2): every unit the user may see on one MapLibre map, live.
 * With `?history=<imei>&from&to` it opens that unit's history over that period (the address is
 * described in features/history/history-url.ts, built there by `historyUrl`).
 *
 * Data flow (as traccar-web does it): the pages of the realtime units' map view fill a store
 * outside React, each drawn as it arrives while the next loads; the live channel's position
 * messages move units in it; the map's source and the list read the store at their own pace. A
 * thousand messages a second cost a Map update each, four source updates a second and one list
 * render a second, never a render per message. A selected unit's details are fetched in full.
 */
import 'maplibre-gl/dist/maplibre-gl.css';
import '../map.css';
import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import IconList from '@tabler/icons-react/dist/esm/icons/IconList.mjs';
import IconX from '@tabler/icons-react/dist/esm/icons/IconX.mjs';
import type { GeoJSONSource } from 'maplibre-gl';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Map as MapView, MapProvider, NavigationControl, useMap, type MapLayerMouseEvent } from 'react-map-gl/maplibre';
import { unitStatuses, type UnitStatus } from '../../../../../shared/unit-status';
import { errorMessage } from '../../../app/api-client';
import { useLiveMessages, useLiveStatus, type LiveStatus } from '../../../app/live/use-live';
import { UnitCommands } from '../../commands/components/unit-commands';
import { UnitEvents } from '../../events/components/unit-events';
import { HistoryLayers } from '../../history/components/history-layers';
import { HistoryLinkNotice } from '../../history/components/history-link-notice';
import { HistoryPanel } from '../../history/components/history-panel';
import type { HistoryLink } from '../../history/history-url';
import { routeBounds } from '../../history/playback';
import { useHistoryLink } from '../../history/use-history-link';
import { useHistoryPlayback } from '../../history/use-history-playback';
import { useMapUnits, useRealtimeUnit } from '../api/map-api';
import { BaseMapSwitch, BaseMapWatch } from '../components/base-map-controls';
import { LiveStatusNotice } from '../components/live-status';
import { UnitDetails, type DetailsTab } from '../components/unit-details';
import { CLUSTER_MAX_ZOOM, UNITS_SOURCE, UnitLayers } from '../components/unit-layers';
import { UnitList } from '../components/unit-list';
import { loadMapLibre } from '../maplibre';
import { WAITING_STYLE } from '../offline-style';
import { INTERACTIVE_UNIT_LAYERS } from '../unit-layer-style';
import { createUnitStore, type StoredUnit } from '../unit-store';
import type { RealtimeUnit } from '../../../../../shared/schemas/tracking';
import { useBaseMap } from '../use-base-map';
import { useCameraPadding, type CameraFocus } from '../use-camera-padding';
import { useNow, useUnitStoreVersion } from '../use-unit-store';
import { FirstRunPanel, useFirstRunNotice, waitingUnits } from '../../unit-lock/components/first-run-panel';

/** Spec section 9: the default map centre is Stockholm. */
const STOCKHOLM = { longitude: 18.0686, latitude: 59.3293, zoom: 10 };
const MAP_ID = 'realtime';
const PANEL_BODY_ID = 'realtime-panel-body';

/** After the channel was down, positions sent meanwhile are fetched once it is back. */
function useCatchUpAfterReconnect(status: LiveStatus, refetch: () => unknown): void {
  const previous = useRef(status);
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (was === 'offline' && status === 'online') void refetch();
  }, [status, refetch]);
}

function RealtimeView() {
  const { t } = useTranslation();
  const [store] = useState(createUnitStore);
  const units = useMapUnits(store);
  useLiveMessages((message) => {
    if (message.type === 'access') {
      // An admin changed this user's units: a revoked one leaves the map at once, and the list is asked again.
      if (!message.granted) store.remove(message.imei);
      units.reload();
      return;
    }
    if (message.type !== 'position') return;
    // A unit locked by someone else is listed without its position, and stays so.
    const known = store.get(message.imei);
    if (known?.lockedBy !== undefined && !known.state) return;
    store.applyPosition(message);
  });
  const live = useLiveStatus();
  useCatchUpAfterReconnect(live, units.reload);
  useUnitStoreVersion(store);
  const now = useNow();
  const base = useBaseMap();
  const { [MAP_ID]: map } = useMap();

  const [query, setQuery] = useState('');
  // `?status=moving,parked` (the fleet overview's links) opens the list filtered.
  const [statuses, setStatuses] = useState<UnitStatus[]>(() => statusesOf(new URLSearchParams(window.location.search).get('status')));
  const [selected, setSelected] = useState<string | null>(null);
  const [tab, setTab] = useState<DetailsTab>('details');
  const [follow, setFollow] = useState(false);
  const [panelOpen, setPanelOpen] = useState(false);
  // An account none of whose trackers has reported yet opens the panel on what to do next (first run).
  const firstLoaded = units.ready;
  useEffect(() => {
    const roster = store.roster();
    if (firstLoaded && roster.length && waitingUnits(roster).length === roster.length) setPanelOpen(true);
  }, [firstLoaded, store]);
  const firstRun = useFirstRunNotice(waitingUnits(store.roster()));
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const container = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLElement>(null);

  const selectedUnit = selected ? store.get(selected) : undefined;
  const details = useRealtimeUnit(selectedUnit ? selectedUnit.imei : null, Boolean(selectedUnit?.state));
  const selectedDetails = useMemo(() => withLiveState(details.data, selectedUnit), [details.data, selectedUnit]);
  // A unit the caller may no longer see leaves the map.
  useEffect(() => {
    if (selected && details.data === null) {
      store.remove(selected);
      setSelected(null);
    }
  }, [details.data, selected, store]);
  const historyOn = tab === 'history' && selectedUnit !== undefined;
  // The playback is keyed by the unit, not by its ever newer state.
  const historyUnit = useMemo(() => (historyOn && selected ? (store.get(selected) ?? null) : null), [historyOn, selected, store]);
  // A followed history link, until another unit is chosen.
  const [opening, setOpening] = useState<HistoryLink | null>(null);
  const playback = useHistoryPlayback(historyUnit, opening);
  const openLink = useCallback((link: HistoryLink) => {
    setSelected(link.imei);
    setTab('history');
    setFollow(false);
    setPanelOpen(true);
    setOpening(link);
  }, []);
  const hasUnit = useCallback((imei: string) => store.get(imei) !== undefined, [store]);
  const historyLink = useHistoryLink({
    ready: units.ready,
    hasUnit,
    open: openLink,
    shown: historyOn && selected ? { imei: selected, period: playback.requested } : null,
  });

  // What the sheet over the map must not hide on a phone: the route shown, else the selected unit.
  const route = historyOn ? playback.positions : null;
  const focus = useCallback((): CameraFocus => {
    const bounds = route ? routeBounds(route) : null;
    if (bounds) return { bounds };
    const state = selected ? store.get(selected)?.state : null;
    return state ? { point: [state.lon, state.lat] } : null;
  }, [route, selected, store]);
  useCameraPadding(map, container, panelRef, focus);

  const select = useCallback(
    (imei: string, fly: boolean) => {
      setSelected(imei);
      setOpening(null);
      setTab('details');
      setFollow(false);
      setPanelOpen(true);
      const state = store.get(imei)?.state;
      if (fly && state && map) {
        const zoom = Math.max(map.getZoom(), CLUSTER_MAX_ZOOM + 1);
        // The map's padding keeps it clear of a phone's sheet (use-camera-padding.ts).
        map.flyTo({ center: [state.lon, state.lat], zoom, essential: true });
      }
    },
    [map, store],
  );
  const selectFromList = useCallback((imei: string) => select(imei, true), [select]);
  const changeTab = useCallback((next: DetailsTab) => {
    setTab(next);
    // The replay moves the map itself; the live unit must not pull it away.
    if (next === 'history') setFollow(false);
  }, []);
  const back = useCallback(() => {
    setSelected(null);
    setOpening(null);
    setTab('details');
    setFollow(false);
  }, []);

  const onMapClick = useCallback(
    async (event: MapLayerMouseEvent) => {
      const feature = event.features?.[0];
      if (!feature || feature.geometry.type !== 'Point') return;
      const center = feature.geometry.coordinates as [number, number];
      const properties = feature.properties as Record<string, unknown>;
      if (typeof properties['cluster_id'] === 'number') {
        const source = event.target.getSource<GeoJSONSource>(UNITS_SOURCE);
        const zoom = await source?.getClusterExpansionZoom(properties['cluster_id']);
        event.target.easeTo({ center, zoom: zoom ?? event.target.getZoom() + 2 });
      } else if (typeof properties['imei'] === 'string') {
        // On a phone the sheet opens over the lower map; the camera padding brings the unit above it.
        select(properties['imei'], false);
      }
    },
    [select],
  );
  const onDrawn = useCallback((count: number) => container.current?.setAttribute('data-units-drawn', String(count)), []);

  const mapLocale = useMemo(
    () => ({
      'Map.Title': t('MapRegionLabel'),
      'NavigationControl.ZoomIn': t('MapZoomIn'),
      'NavigationControl.ZoomOut': t('MapZoomOut'),
      'NavigationControl.ResetBearing': t('MapResetNorth'),
      'AttributionControl.ToggleAttribution': t('MapToggleAttribution'),
    }),
    [t],
  );

  // The units are drawn over plain water while the base map is chosen (seconds without a network).
  const mapStyle = base.active.kind === 'remote' || base.active.kind === 'offline' ? base.active.style : base.active.kind === 'loading' ? WAITING_STYLE : null;

  let panel;
  const empty = store.roster().length === 0;
  if (empty && units.loading) {
    panel = (
      <Center py="xl">
        <Loader role="progressbar" aria-label={t('Loading')} />
      </Center>
    );
  } else if (units.error && !units.ready) {
    panel = (
      <Alert color="red" title={t('MapLoadFailed')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(units.error)}</Text>
          <Button size="xs" variant="light" onClick={units.reload}>
            {t('TryAgain')}
          </Button>
        </Stack>
      </Alert>
    );
  } else if (selectedUnit) {
    panel = selectedDetails ? (
      <UnitDetails
        unit={selectedDetails}
        now={now}
        follow={follow}
        onFollowChange={setFollow}
        tab={tab}
        onTabChange={changeTab}
        onBack={back}
        commands={<UnitCommands unit={selectedDetails} />}
        events={<UnitEvents imei={selectedUnit.imei} now={now} />}
        history={historyOn ? <HistoryPanel playback={playback} onClose={() => setTab('details')} /> : null}
      />
    ) : details.isError ? (
      <Alert color="red" title={t('MapLoadFailed')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(details.error)}</Text>
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={() => void details.refetch()}>
              {t('TryAgain')}
            </Button>
            <Button size="xs" variant="subtle" onClick={back}>
              {t('MapBackToList')}
            </Button>
          </Group>
        </Stack>
      </Alert>
    ) : (
      <Center py="xl">
        <Loader role="progressbar" aria-label={t('Loading')} />
      </Center>
    );
  } else {
    panel = (
      <Stack gap="sm">
        <FirstRunPanel units={firstRun.units} onHide={firstRun.hide} />
        <UnitList
          store={store}
          roster={store.roster()}
          query={query}
          onQueryChange={setQuery}
          statuses={statuses}
          onStatusesChange={setStatuses}
          onSelect={selectFromList}
          now={now}
          loading={units.loading}
        />
      </Stack>
    );
  }

  return (
    <div className="rt-page">
      <section className="rt-panel" data-open={panelOpen} aria-label={t('MapUnitsHeading')} ref={panelRef}>
        <div className="rt-panel-handle">
          <Button
            variant="subtle"
            size="compact-md"
            fullWidth
            aria-expanded={panelOpen}
            aria-controls={PANEL_BODY_ID}
            leftSection={panelOpen ? <IconX size={18} aria-hidden /> : <IconList size={18} aria-hidden />}
            onClick={() => setPanelOpen((open) => !open)}
          >
            {selectedUnit ? (panelOpen ? t('MapHideDetails') : t('MapShowDetails')) : panelOpen ? t('MapHideUnits') : t('MapShowUnits')}
          </Button>
        </div>
        <div className="rt-panel-body" id={PANEL_BODY_ID}>
          {historyLink.missing ? <HistoryLinkNotice onClose={historyLink.dismissMissing} /> : null}
          {panel}
        </div>
      </section>
      <div className="rt-map" data-testid="realtime-map" data-basemap={base.active.kind === 'remote' ? base.active.base.id : base.active.kind} ref={container}>
        {mapStyle ? (
          <MapView
            id={MAP_ID}
            mapLib={loadMapLibre()}
            mapStyle={mapStyle}
            initialViewState={STOCKHOLM}
            locale={mapLocale}
            interactiveLayerIds={INTERACTIVE_UNIT_LAYERS}
            onClick={(event) => void onMapClick(event)}
            onMouseEnter={() => setCursor('pointer')}
            onMouseLeave={() => setCursor(undefined)}
            cursor={cursor}
            attributionControl={{ compact: true }}
            dragRotate={false}
            // Symbols fade in over 300 ms by default whenever tiles are placed anew, and a clustered
            // source's every update replaces all its tiles: with four updates a second the map never
            // stopped redrawing (17 frames a second instead of 9 in bench:map).
            fadeDuration={0}
            style={{ position: 'absolute', inset: 0 }}
          >
            <NavigationControl position="top-right" showCompass={false} />
            <BaseMapWatch active={base.active} onFail={base.fail} />
            <UnitLayers store={store} selected={selected} follow={follow} dimmed={historyOn} onDrawn={onDrawn} />
            {historyOn ? <HistoryLayers playback={playback} /> : null}
          </MapView>
        ) : (
          <Center h="100%" p="md">
            <Text c="dimmed" ta="center">
              {t('MapBaseMapFailed')}
            </Text>
          </Center>
        )}
        {base.active.kind === 'loading' ? (
          <div className="rt-basemap-loading" role="status">
            <Loader size="xs" role="progressbar" aria-label={t('MapLoading')} />
          </div>
        ) : null}
        {base.active.kind === 'remote' ? <BaseMapSwitch choices={base.choices} value={base.active.base.id} onChange={base.choose} /> : null}
        <LiveStatusNotice status={live} />
      </div>
    </div>
  );
}

/**
 * The selected unit in full as fetched, with the live state the store has when it is newer: the
 * fetched one carries what the map's view leaves out, a live message all of the state.
 */
function withLiveState(full: RealtimeUnit | null | undefined, shown: StoredUnit | undefined): RealtimeUnit | null {
  if (!full || !shown || full.imei !== shown.imei) return null;
  const live = shown.state;
  if (!live || !full.state || Date.parse(live.ts) <= Date.parse(full.state.ts)) return full;
  return { ...full, state: { ...full.state, ...live } };
}

/** The statuses named in a `status` parameter (comma-separated), in the list's order; unknown names are ignored. */
function statusesOf(value: string | null): UnitStatus[] {
  const asked = new Set((value ?? '').split(','));
  return unitStatuses.filter((s) => asked.has(s));
}

export function RealtimePage() {
  return (
    <MapProvider>
      <RealtimeView />
    </MapProvider>
  );
}
