/**
 * /user/my-trips: the signed-in driver's trips of the last 30 days on a phone, offline too
 * (docs/decisions/0047-installable-app-and-offline-trips.md). The trips are those of the unit the
 * trip log would open (the one last chosen there, else the unit heard from last; a picker when the
 * user may see several), read from the server when there is a network and kept in IndexedDB
 * (store.ts); without one the kept trips are shown with an offline notice and the time of the
 * last sync. Edits go into the outbox (outbox.ts, sync.ts): shown at once as waiting, sent in
 * order when the phone is online, each once; a change the server refuses is shown on its trip.
 */
import { Alert, Button, Group, Loader, Paper, Select, Stack, Text, Title } from '@mantine/core';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconQrcode from '@tabler/icons-react/dist/esm/icons/IconQrcode.mjs';
import IconRefresh from '@tabler/icons-react/dist/esm/icons/IconRefresh.mjs';
import IconWifiOff from '@tabler/icons-react/dist/esm/icons/IconWifiOff.mjs';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Trip, TripUpdate } from '../../../../../shared/schemas/trips';
import { storage } from '../../../app/preferences';
import { useSessionUser } from '../../../app/session';
import { ensureMessageKeys } from '../../../i18n/i18n';
import { onOutboxSyncRequest } from '../../../pwa/register';
import { useTripFormat } from '../../triplog/format';
import { landingUnit, lastTripUnitKey } from '../../triplog/trip-log';
import { EditTripModal } from '../components/edit-trip-modal';
import { refusalText, TripCard } from '../components/trip-card';
import { tripView, type OutboxEntry } from '../outbox';
import { onStoreChange, outboxEntries, removeEntry, storedTrips, storedUnits, type StoredTrips, type StoredUnit } from '../store';
import { markOutboxBusy, refreshTrips, refreshUnits, submitChange, syncOutbox } from '../sync';
import { useOnline } from '../use-online';

interface Editing {
  trip: Trip;
  typed?: TripUpdate;
  /** The refused entry this edit replaces once kept. */
  replaces?: number;
}

export function MyTripsPage() {
  const { t, i18n } = useTranslation();
  const format = useTripFormat();
  const user = useSessionUser();
  const userId = user?.ID ?? '';
  const online = useOnline();
  const [units, setUnits] = useState<StoredUnit[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(() => storage.get(lastTripUnitKey(userId)));
  /** The unit's trips as the phone keeps them: undefined until read, null when it keeps none. */
  const [stored, setStored] = useState<StoredTrips | null | undefined>(undefined);
  const [entries, setEntries] = useState<OutboxEntry[]>([]);
  const [syncing, setSyncing] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);
  /** What the last save did: kept on the phone (offline) or accepted at once. */
  const [savedOffline, setSavedOffline] = useState<boolean | null>(null);

  const imei = units ? (landingUnit(units, chosen)?.imei ?? null) : null;

  // What the phone holds: read at once, and again whenever the store changes.
  const readStore = useCallback(async () => {
    const [u, e] = await Promise.all([storedUnits(userId), outboxEntries(userId)]);
    setEntries(e);
    if (u) setUnits((current) => current ?? u);
    void ensureMessageKeys(e.flatMap((entry) => (entry.refusal ? [entry.refusal.key] : [])));
  }, [userId]);
  useEffect(() => {
    void readStore();
    return onStoreChange(() => void readStore());
  }, [readStore]);
  useEffect(() => {
    if (!imei) return;
    const read = () => void storedTrips(userId, imei).then(setStored);
    read();
    return onStoreChange(read);
  }, [userId, imei]);

  // The network: send what waits, then read units and trips anew.
  const sync = useCallback(async () => {
    if (!navigator.onLine) return;
    setSyncing(true);
    try {
      await syncOutbox(userId);
      const fresh = await refreshUnits(userId);
      setUnits(fresh);
      const unit = landingUnit(fresh, storage.get(lastTripUnitKey(userId)));
      if (unit) await refreshTrips(userId, unit.imei);
      setLoadFailed(false);
    } catch {
      setLoadFailed(true);
    } finally {
      setSyncing(false);
    }
  }, [userId]);
  useEffect(() => {
    void sync();
    const onOnline = () => void sync();
    window.addEventListener('online', onOnline);
    const stop = onOutboxSyncRequest(() => void sync());
    return () => {
      window.removeEventListener('online', onOnline);
      stop();
    };
  }, [sync]);

  const pendingCount = entries.filter((e) => !e.refusal).length;
  const refusedCount = entries.filter((e) => e.refusal).length;
  useEffect(() => markOutboxBusy(pendingCount), [pendingCount]);
  useEffect(() => () => markOutboxBusy(0), []);

  const views = useMemo(() => (stored?.trips ?? []).map((trip) => tripView(trip, entries)), [stored, entries]);
  const checkIns = entries.filter((e) => e.change.kind === 'checkIn');

  const choose = (next: string | null) => {
    if (!next) return;
    storage.set(lastTripUnitKey(userId), next);
    setChosen(next);
    if (navigator.onLine) void refreshTrips(userId, next).catch(() => setLoadFailed(true));
  };

  const save = async (edit: Editing, fields: TripUpdate) => {
    const result = await submitChange(userId, { kind: 'edit', tripId: edit.trip.id, imei: edit.trip.imei, fields });
    if (edit.replaces !== undefined) await removeEntry(userId, edit.replaces);
    setEditing(null);
    setSavedOffline(result.stopped ? true : result.refused > 0 ? null : false);
  };

  // Nothing is said of the last sync until the phone's copy has been read (it takes a moment after a start offline).
  const lastSync = stored?.syncedAt ? t('MyTripsLastSync', { time: format.dateTime(new Date(stored.syncedAt).toISOString()) }) : stored === undefined && imei ? '' : t('MyTripsNeverSynced');

  return (
    <Stack gap="md" maw={760} mx="auto" w="100%">
      <Text size="sm" c="dimmed">
        {t('MyTripsIntro')}
      </Text>

      {online ? (
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm" c="dimmed" data-testid="last-sync">
            {lastSync}
          </Text>
          <Button size="xs" variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void sync()} loading={syncing}>
            {t('MyTripsSyncNow')}
          </Button>
        </Group>
      ) : (
        <Alert
          color="orange"
          variant="light"
          icon={<IconWifiOff size={20} aria-hidden />}
          title={t('MyTripsOffline')}
          role="status"
          data-testid="offline-banner"
          // The orange of the title is too light on its own background for small text.
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          <Stack gap={4}>
            <Text size="sm">{stored?.syncedAt || units?.length ? t('MyTripsOfflineDetail') : t('MyTripsOfflineNothing')}</Text>
            <Text size="sm" fw={600}>
              {lastSync}
            </Text>
          </Stack>
        </Alert>
      )}
      {online && loadFailed ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
          {t('MyTripsLoadFailed')}
        </Alert>
      ) : null}

      <div role="status" aria-live="polite">
        {pendingCount > 0 || refusedCount > 0 || savedOffline !== null ? (
          <Stack gap={2}>
            {/* "Kept on this phone" holds only while something waits; once sent, it is said no more. */}
            {savedOffline === true && pendingCount > 0 ? <Text size="sm">{t('MyTripsSavedOffline')}</Text> : null}
            {savedOffline === false ? <Text size="sm">{t('MyTripsSaved')}</Text> : null}
            {pendingCount > 0 ? <Text size="sm" fw={600}>{t('MyTripsPendingCount', { count: pendingCount })}</Text> : null}
            {refusedCount > 0 ? (
              <Text size="sm" fw={600} c="red.8">
                {t('MyTripsRefusedCount', { count: refusedCount })}
              </Text>
            ) : null}
          </Stack>
        ) : null}
      </div>

      {units && units.length > 1 ? (
        <Select
          label={t('MyTripsVehicle')}
          data={units.map((u) => ({ value: u.imei, label: u.registrationNumber ? `${u.name} (${u.registrationNumber})` : u.name }))}
          value={imei}
          onChange={choose}
          allowDeselect={false}
          searchable
          maw={420}
        />
      ) : null}

      <Paper withBorder radius="md" p="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconQrcode size={28} stroke={1.5} aria-hidden style={{ flexShrink: 0 }} />
          <Stack gap={4}>
            <Title order={2} size="h5">
              {t('MyTripsCheckIn')}
            </Title>
            <Text size="sm">{t('MyTripsCheckInHint')}</Text>
            {checkIns.map((entry) =>
              entry.change.kind === 'checkIn' ? (
                <Group key={entry.seq} gap="xs">
                  <Text size="sm" c={entry.refusal ? 'red.8' : undefined} fw={600}>
                    {entry.refusal
                      ? t('MyTripsCheckInRefused', { time: format.dateTime(entry.change.request.from), reason: refusalText(t, (k) => i18n.exists(k), entry.refusal.key) })
                      : t('MyTripsCheckInPending', { time: format.dateTime(entry.change.request.from) })}
                  </Text>
                  {entry.refusal ? (
                    <Button size="compact-xs" variant="default" onClick={() => void removeEntry(userId, entry.seq)}>
                      {t('MyTripsDiscard')}
                    </Button>
                  ) : null}
                </Group>
              ) : null,
            )}
          </Stack>
        </Group>
      </Paper>

      <Title order={2} size="h4">
        {t('MyTrips')}
      </Title>
      {units === null || (imei && !stored) ? (
        online ? (
          <Group gap="xs" role="status">
            <Loader size="sm" aria-hidden />
          </Group>
        ) : null
      ) : units.length === 0 ? (
        <Text>{t('MyTripsNoUnits')}</Text>
      ) : views.length === 0 ? (
        <Text>{t('MyTripsNoTrips')}</Text>
      ) : (
        <Stack gap="sm" component="section" aria-label={t('MyTrips')}>
          {views.map((view) => (
            <TripCard
              key={view.trip.id}
              view={view}
              onEdit={() => setEditing({ trip: view.trip })}
              onRetry={(entry) => entry.change.kind === 'edit' && setEditing({ trip: view.trip, typed: entry.change.fields, replaces: entry.seq })}
              onDiscard={(entry) => void removeEntry(userId, entry.seq)}
            />
          ))}
        </Stack>
      )}

      {editing ? (
        <EditTripModal
          trip={editing.trip}
          {...(editing.typed ? { typed: editing.typed } : {})}
          onSave={(fields) => save(editing, fields)}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Stack>
  );
}
