/**
 * /user/create-triplog (spec sections 2-5 and 9): a unit's trips over a period of local days, by
 * day, with totals per type; inline editing; merge, split and routes on the map for selected trips;
 * driver check-in and the unit's QR code; odometer entries; attesting the period. The unit and the
 * period live in the address (`?imei&from&to`), so a reload or a link shows the same log.
 */
import '../triplog.css';
import { Alert, Anchor, Button, Group, Modal, Paper, Select, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useElementSize, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconArrowsJoin2 from '@tabler/icons-react/dist/esm/icons/IconArrowsJoin2.mjs';
import IconArrowsSplit2 from '@tabler/icons-react/dist/esm/icons/IconArrowsSplit2.mjs';
import IconCloudUpload from '@tabler/icons-react/dist/esm/icons/IconCloudUpload.mjs';
import IconGauge from '@tabler/icons-react/dist/esm/icons/IconGauge.mjs';
import IconHourglass from '@tabler/icons-react/dist/esm/icons/IconHourglass.mjs';
import IconLock from '@tabler/icons-react/dist/esm/icons/IconLock.mjs';
import IconMap2 from '@tabler/icons-react/dist/esm/icons/IconMap2.mjs';
import IconQrcode from '@tabler/icons-react/dist/esm/icons/IconQrcode.mjs';
import IconRoute from '@tabler/icons-react/dist/esm/icons/IconRoute.mjs';
import IconSignature from '@tabler/icons-react/dist/esm/icons/IconSignature.mjs';
import IconUserCheck from '@tabler/icons-react/dist/esm/icons/IconUserCheck.mjs';
import IconX from '@tabler/icons-react/dist/esm/icons/IconX.mjs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { tripTypes, type Trip, type TripList } from '../../../../../shared/schemas/trips';
import { ApiError, browserTimeZone, errorMessage } from '../../../app/api-client';
import { useLoadedSettings } from '../../../app/guards';
import { paths } from '../../../app/paths';
import { storage } from '../../../app/preferences';
import { getSessionUser } from '../../../app/session';
import { fieldErrorText } from '../../../ui/form-errors';
import { MessageState } from '../../../ui/message-state';
import { LoadFailed } from '../../../ui/load-failed';
import { PageLoader } from '../../../ui/page-loader';
import { canOpenHistory } from '../../history/history-url';
import { useUnits } from '../../units/api/units';
import { mergeTrips, splitTrip, tripsKey, useDemoHistory, useTrips, type TripsQuery } from '../api/trip-api';
import { AttestModal } from '../components/attest-modal';
import { AutoplanModal } from '../components/autoplan-modal';
import { CheckInModal } from '../components/check-in-modal';
import { OdometerModal } from '../components/odometer-modal';
import { QrCodeModal } from '../components/qr-code-modal';
import { focusEditButton, TripList as TripDays } from '../components/trip-list';
import { tripTypeColors, tripTypeLabelKeys } from '../components/trip-type';
import { useTripFormat } from '../format';
import { LockedOrFailed } from '../../unit-lock/components/tracker-locked';
import { useProjectNames } from '../../organisation/api/organisation-api';
import {
  defaultPeriod,
  groupByDay,
  landingUnit,
  lastTripUnitKey,
  mergePair,
  monthOf,
  periodErrors,
  previousMonthOf,
  routeLimitError,
  tripTotals,
  purposeChoices,
  usedPurposes,
  type TripFormValues,
} from '../trip-log';
import { localDayOf } from '../../../../../shared/local-time';
import { DateField } from '../../../ui/date-fields';

const RouteMapModal = lazy(() => import('../components/route-map-modal'));

type Dialog = 'checkIn' | 'qr' | 'odometer' | 'attest' | 'autoplan' | null;

/**
 * The account's default purposes come first in the purpose picker. GET /user/settings does not
 * carry them yet (the server reads `defaultPurposes` of the account, functions/trips/account-settings.ts);
 * until it does, the picker offers the purposes used before, and free text.
 */
const ACCOUNT_DEFAULT_PURPOSES: readonly string[] = [];

/** Below this width of the page the trips are cards (the table's columns need it). */
const TABLE_MIN_WIDTH = 820;

export function TriplogPage() {
  const { t } = useTranslation();
  const units = useUnits();
  const [params, setParams] = useSearchParams();
  const timeZone = browserTimeZone();
  const fallback = useMemo(() => defaultPeriod(new Date(), timeZone), [timeZone]);

  const userId = getSessionUser()?.ID ?? '';
  const imei = params.get('imei') ?? (units.data ? (landingUnit(units.data, storage.get(lastTripUnitKey(userId)))?.imei ?? null) : null);
  const from = params.get('from') ?? fallback.from;
  const to = params.get('to') ?? fallback.to;

  const choose = (next: { imei?: string; from?: string; to?: string }) => {
    if (next.imei) storage.set(lastTripUnitKey(userId), next.imei);
    setParams(
      (current) => {
        const merged = new URLSearchParams(current);
        for (const [key, value] of Object.entries(next)) merged.set(key, value);
        if (!merged.get('imei') && imei) merged.set('imei', imei);
        return merged;
      },
      { replace: true },
    );
  };

  if (units.data === undefined) {
    if (!units.isError) return <PageLoader />;
    return <LoadFailed title={t('TripUnitsLoadFailed')} error={units.error} onRetry={() => void units.refetch()} retrying={units.isFetching} />;
  }
  if (units.data.length === 0 || imei === null) {
    return (
      <MessageState icon={<IconRoute size={30} stroke={1.6} />} title={t('TripNoUnitsTitle')}>
        {t('TripNoUnits')}
      </MessageState>
    );
  }
  const unit = units.data.find((u) => u.imei === imei);
  const unitChoices = units.data.map((u) => ({ value: u.imei, label: u.registrationNumber ? `${u.name} (${u.registrationNumber})` : u.name }));

  return (
    <TriplogView
      key={`${imei} ${from} ${to}`}
      imei={imei}
      unitName={unit?.name ?? imei}
      unitChoices={unitChoices}
      from={from}
      to={to}
      onChoose={choose}
    />
  );
}

interface TriplogViewProps {
  imei: string;
  unitName: string;
  unitChoices: ReadonlyArray<{ value: string; label: string }>;
  from: string;
  to: string;
  onChoose: (next: { imei?: string; from?: string; to?: string }) => void;
}

function TriplogView({ imei, unitName, unitChoices, from, to, onChoose }: TriplogViewProps) {
  const { t } = useTranslation();
  const format = useTripFormat();
  const settings = useLoadedSettings();
  const queryClient = useQueryClient();
  // Cards where the table would not fit: on phones, and beside the sidebar on a narrow laptop.
  const { ref: pageRef, width: pageWidth } = useElementSize();
  const narrowWindow = useMediaQuery('(max-width: 62em)') ?? false;
  const compact = pageWidth > 0 ? pageWidth < TABLE_MIN_WIDTH : narrowWindow;
  const timeZone = browserTimeZone();

  const browserErrors = periodErrors(from, to);
  const query: TripsQuery | null = browserErrors.from || browserErrors.to ? null : { imei, from, to };
  const trips = useTrips(query);
  // While the demo history fills (npm start's first start), a notice; once it is done, the trips again.
  const demoHistory = useDemoHistory();
  const filling = demoHistory.data?.filling;
  const wasFilling = useRef(false);
  useEffect(() => {
    if (wasFilling.current && filling === false) void queryClient.invalidateQueries({ queryKey: ['trips'] });
    wasFilling.current = filling === true;
  }, [filling, queryClient]);

  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [routeTrips, setRouteTrips] = useState<readonly Trip[] | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [spoken, setSpoken] = useState('');
  const drafts = useRef(new Map<string, TripFormValues>());

  const list = trips.data?.trips;
  const days = useMemo(() => groupByDay(list ?? [], timeZone), [list, timeZone]);
  const selectedTrips = useMemo(() => (list ?? []).filter((trip) => selected.has(trip.id)), [list, selected]);
  const purposes = useMemo(() => purposeChoices(ACCOUNT_DEFAULT_PURPOSES, usedPurposes(list ?? [], format.locale)), [list, format.locale]);
  // The account's projects (administration's list) first, then any other project the trips of the period name.
  const accountProjects = useProjectNames().data?.projects;
  const projects = useMemo(
    () => [...new Set([...(accountProjects ?? []), ...(list ?? []).map((trip) => trip.project?.trim()).filter((p): p is string => Boolean(p))])],
    [accountProjects, list],
  );

  const announce = useCallback((text: string, color: 'green' | 'red' = 'green') => {
    // A new text each time, so that the same message twice is read twice.
    setSpoken((before) => (before === text ? `${text}\u00a0` : text));
    notifications.show({ color, message: text, withBorder: true, closeButtonProps: { 'aria-label': t('TripClose') } });
  }, [t]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['trips', imei] });
  const replaceTrips = (update: (trips: Trip[]) => Trip[]) =>
    queryClient.setQueryData<TripList>(tripsKey(query), (before) => (before ? { ...before, trips: update(before.trips) } : before));

  const toggle = (trip: Trip) =>
    setSelected((before) => {
      const next = new Set(before);
      if (next.has(trip.id)) next.delete(trip.id);
      else next.add(trip.id);
      return next;
    });

  const merge = useMutation({
    mutationFn: (ids: [string, string]) => mergeTrips(ids),
    onSuccess: (merged) => {
      setSelected(new Set([merged.id]));
      announce(t('TripMergedDone'));
      void refresh();
    },
    onError: (error) => setRefusal(errorMessage(error)),
  });
  const split = useMutation({
    mutationFn: (id: string) => splitTrip(id),
    onSuccess: (parts) => {
      setSelected(new Set(parts.map((p) => p.id)));
      announce(t('TripSplitDone', { count: parts.length }));
      void refresh();
    },
    onError: (error) => setRefusal(errorMessage(error)),
  });

  const pair = mergePair(selectedTrips);
  const splittable = selectedTrips.length === 1 && selectedTrips[0]?.merged && !selectedTrips[0].attested ? selectedTrips[0] : null;
  // Why Split is greyed out: it undoes a merge, of one merged trip that is not attested.
  const splitHint = splittable ? null : selectedTrips.length === 1 && selectedTrips[0]?.merged ? 'TripSplitHintAttested' : 'TripSplitHint';

  const showRoutes = (chosen: readonly Trip[]) => {
    const refused = routeLimitError(chosen, timeZone);
    if (refused) setRefusal(t(refused));
    else setRouteTrips(chosen);
  };

  const formProps = {
    drafts: drafts.current,
    purposes,
    projects,
    onSaved: (saved: Trip) => {
      replaceTrips((all) => all.map((trip) => (trip.id === saved.id ? saved : trip)));
      setEditing(null);
      focusEditButton(saved.id);
      announce(t('TripSaved', { time: `${format.time(saved.startTime)}–${format.time(saved.stopTime)}` }));
      void refresh();
    },
    onLocked: () => {
      void refresh();
    },
  };

  const allAttested = (list?.length ?? 0) > 0 && list?.every((trip) => trip.attested);
  const totals = trips.data?.totals ?? tripTotals([]);
  const periodError = trips.error instanceof ApiError ? trips.error.fieldErrors : {};
  const fromError = browserErrors.from ?? periodError['from']?.[0];
  const toError = browserErrors.to ?? periodError['to']?.[0];
  const selectedTotals = tripTotals(selectedTrips);
  const selectedKm = selectedTotals.business.distance + selectedTotals.private.distance + selectedTotals.other.distance;

  return (
    <Stack gap="lg" className="triplog-page" ref={pageRef}>
      <div role="status" aria-live="polite" className="triplog-spoken">
        <VisuallyHidden>{spoken}</VisuallyHidden>
      </div>

      {demoHistory.data?.filling ? (
        <Alert color="blue" icon={<IconHourglass size={18} aria-hidden />} role="status" className="triplog-demo-history">
          {t('TripDemoHistoryFilling', { percent: demoHistory.data.percent })}
        </Alert>
      ) : null}

      <PeriodForm imei={imei} unitChoices={unitChoices} from={from} to={to} fromError={fromError} toError={toError} onChoose={onChoose} />

      <Group gap="xs" className="triplog-tools">
        <Button variant="light" leftSection={<IconUserCheck size={18} aria-hidden />} onClick={() => setDialog('checkIn')}>
          {t('TripCheckInDriver')}
        </Button>
        <Button variant="light" leftSection={<IconQrcode size={18} aria-hidden />} onClick={() => setDialog('qr')}>
          {t('TripQrCode')}
        </Button>
        <Button variant="light" leftSection={<IconGauge size={18} aria-hidden />} onClick={() => setDialog('odometer')}>
          {t('TripOdometerEntriesButton')}
        </Button>
        <Button leftSection={<IconSignature size={18} aria-hidden />} onClick={() => setDialog('attest')} disabled={!list || list.length === 0 || allAttested}>
          {t('TripAttestPeriod')}
        </Button>
        <Button variant="light" leftSection={<IconCloudUpload size={18} aria-hidden />} onClick={() => setDialog('autoplan')}>
          {t('AutoplanButton')}
        </Button>
        {settings.is_admin ? (
          <Anchor component={Link} to={paths.attestStatus} size="sm" fw={600} className="triplog-admin-link">
            {t('AttestStatus')}
          </Anchor>
        ) : null}
      </Group>

      {trips.isPending && query ? (
        <PageLoader />
      ) : trips.isError && !fromError && !toError ? (
        <LockedOrFailed error={trips.error}>
          <Alert color="red" role="alert" title={t('TripLoadFailed')}>
            <Stack gap="sm" align="flex-start">
              <span>{errorMessage(trips.error)}</span>
              <Button variant="default" size="xs" onClick={() => void trips.refetch()}>
                {t('TryAgain')}
              </Button>
            </Stack>
          </Alert>
        </LockedOrFailed>
      ) : list ? (
        <>
          <section aria-label={t('TripTotals')}>
            <div className="triplog-totals">
              {tripTypes.map((type) => (
                <Paper key={type} withBorder radius="md" p="xs" className="triplog-total" data-type={type} style={{ borderTopColor: `var(--mantine-color-${tripTypeColors[type]}-6)` }}>
                  <Text size="xs" c="dimmed" fw={600}>
                    {t(tripTypeLabelKeys[type])}
                  </Text>
                  <Text fw={700} size="lg" className="triplog-total-km">
                    {format.km(totals[type].distance)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('TripCount', { count: totals[type].count })}
                  </Text>
                </Paper>
              ))}
            </div>
          </section>

          {allAttested ? (
            <Alert color="teal" icon={<IconLock size={18} aria-hidden />}>
              {t('TripPeriodAttested')}
            </Alert>
          ) : null}

          {list.length === 0 ? (
            <MessageState icon={<IconRoute size={30} stroke={1.6} />} title={t('TripNoTripsTitle')}>
              {t('TripNoTrips', { from: format.shortDay(from), to: format.shortDay(to) })}
            </MessageState>
          ) : (
            <TripDays
              days={days}
              selected={selected}
              onToggle={toggle}
              editing={editing}
              onEdit={(trip) => {
                const closing = editing;
                setEditing(trip?.id ?? null);
                if (!trip && closing) focusEditButton(closing);
              }}
              onShowRoute={(trip) => showRoutes([trip])}
              onSplit={(trip) => split.mutate(trip.id)}
              form={formProps}
              compact={compact}
              withHistory={canOpenHistory(settings)}
            />
          )}
        </>
      ) : null}

      {selectedTrips.length > 0 ? (
        <Paper className="triplog-selection" shadow="md" withBorder radius="md" p="xs" role="region" aria-label={t('TripSelection')}>
          <Group gap="xs" justify="space-between" wrap="wrap">
            <Text size="sm" fw={600} aria-live="polite">
              {t('TripSelectedCount', { count: selectedTrips.length, distance: format.km(selectedKm) })}
            </Text>
            {splitHint ? (
              <Text size="xs" id="triplog-split-hint">
                {t(splitHint)}
              </Text>
            ) : null}
            <Group gap="xs" wrap="wrap">
              <Button size="xs" leftSection={<IconArrowsJoin2 size={16} aria-hidden />} disabled={!pair} loading={merge.isPending} onClick={() => pair && merge.mutate([pair[0].id, pair[1].id])}>
                {t('TripMerge')}
              </Button>
              <Button
                size="xs"
                leftSection={<IconArrowsSplit2 size={16} aria-hidden />}
                disabled={!splittable}
                aria-describedby={splitHint ? 'triplog-split-hint' : undefined}
                loading={split.isPending}
                onClick={() => splittable && split.mutate(splittable.id)}
              >
                {t('TripSplit')}
              </Button>
              <Button size="xs" leftSection={<IconMap2 size={16} aria-hidden />} onClick={() => showRoutes(selectedTrips)}>
                {t('TripShowOnMap')}
              </Button>
              <Button size="xs" variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={() => setSelected(new Set())}>
                {t('TripClearSelection')}
              </Button>
            </Group>
          </Group>
        </Paper>
      ) : null}

      <Modal opened={refusal !== null} onClose={() => setRefusal(null)} title={t('TripCannotDoThat')} centered closeButtonProps={{ 'aria-label': t('TripClose') }}>
        <Stack gap="md">
          <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
            {refusal}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={() => setRefusal(null)} data-autofocus>
              {t('TripOk')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      {routeTrips ? (
        <Suspense fallback={null}>
          <RouteMapModal trips={routeTrips} opened onClose={() => setRouteTrips(null)} />
        </Suspense>
      ) : null}

      <CheckInModal
        imei={imei}
        unitName={unitName}
        opened={dialog === 'checkIn'}
        onClose={() => setDialog(null)}
        onDone={(checkIn) => {
          announce(t('TripCheckedIn', { driver: checkIn.driverName ?? checkIn.driverId, count: checkIn.tripsChanged }));
          void refresh();
        }}
      />
      <QrCodeModal imei={imei} unitName={unitName} opened={dialog === 'qr'} onClose={() => setDialog(null)} />
      <OdometerModal imei={imei} unitName={unitName} opened={dialog === 'odometer'} onClose={() => setDialog(null)} announce={announce} />
      <AutoplanModal imei={imei} unitName={unitName} isAdmin={settings.is_admin} opened={dialog === 'autoplan'} onClose={() => setDialog(null)} announce={announce} />
      <AttestModal
        imei={imei}
        unitName={unitName}
        from={from}
        to={to}
        totals={totals}
        opened={dialog === 'attest'}
        onClose={() => setDialog(null)}
        onDone={() => {
          setEditing(null);
          announce(t('TripAttestDone'));
          void refresh();
        }}
      />
    </Stack>
  );
}

interface PeriodFormProps {
  imei: string;
  unitChoices: ReadonlyArray<{ value: string; label: string }>;
  from: string;
  to: string;
  fromError: string | undefined;
  toError: string | undefined;
  onChoose: (next: { imei?: string; from?: string; to?: string }) => void;
}

/** The unit (searchable) and the period; the period is asked for on Show or a quick pick. */
function PeriodForm({ imei, unitChoices, from, to, fromError, toError, onChoose }: PeriodFormProps) {
  const { t } = useTranslation();
  const [fromValue, setFromValue] = useState(from);
  const [toValue, setToValue] = useState(to);
  const today = localDayOf(Date.now(), browserTimeZone());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChoose({ from: fromValue, to: toValue });
  };
  return (
    <form onSubmit={submit} noValidate className="triplog-filters" aria-label={t('TripPeriodForm')}>
      <Select
        className="triplog-unit"
        label={t('TripUnit')}
        data={[...unitChoices]}
        value={imei}
        onChange={(value) => value && onChoose({ imei: value })}
        searchable
        allowDeselect={false}
        nothingFoundMessage={t('TripNoUnitMatches')}
        comboboxProps={{ withinPortal: true }}
      />
      <DateField label={t('TripFrom')} value={fromValue} onChange={setFromValue} error={fieldErrorText(fromError)} required />
      <DateField label={t('TripTo')} value={toValue} onChange={setToValue} error={fieldErrorText(toError)} required />
      <Group gap="xs" className="triplog-filter-buttons" wrap="wrap">
        <Button type="submit">{t('TripShow')}</Button>
        <Button variant="default" onClick={() => onChoose(monthOf(today))}>
          {t('TripThisMonth')}
        </Button>
        <Button variant="default" onClick={() => onChoose(previousMonthOf(today))}>
          {t('TripLastMonth')}
        </Button>
      </Group>
    </form>
  );
}
