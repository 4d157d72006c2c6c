/**
 * /user/alerts (bare layout, spec section 2): the events of the units the user may see, newest
 * first, filtered by unit, event type and period, kept current by the live channel, with each new
 * event announced to screen readers; and whether this device gets the user's alarms as push
 * notifications (web/src/features/push).
 */
import '../events.css';
import { Alert, Anchor, Button, Group, Paper, Select, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconArrowLeft from '@tabler/icons-react/dist/esm/icons/IconArrowLeft.mjs';
import IconBellOff from '@tabler/icons-react/dist/esm/icons/IconBellOff.mjs';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { eventTypes, EVENTS_MAX, type EventType } from '../../../../../shared/schemas/events';
import type { LiveEventMessage } from '../../../../../shared/schemas/live';
import { errorMessage } from '../../../app/api-client';
import { landingRoute } from '../../../app/access';
import { useLoadedSettings } from '../../../app/guards';
import { usePageTitleKey } from '../../../app/use-page-title';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { useUnits } from '../../units/api/units';
import { useEvents, useLiveEventUpdates } from '../api/event-api';
import { EventList } from '../components/event-list';
import { EVENT_TYPE_KEYS, useEventText } from '../event-text';
import { LockedOrFailed } from '../../unit-lock/components/tracker-locked';
import { PushControl } from '../../push/components/push-control';

const PERIODS = { '24h': { ms: 86_400_000, key: 'AlertsLast24h' }, '7d': { ms: 7 * 86_400_000, key: 'AlertsLast7d' }, '30d': { ms: 30 * 86_400_000, key: 'AlertsLast30d' } } as const;
type Period = keyof typeof PERIODS;
const isPeriod = (v: string | null): v is Period => v !== null && v in PERIODS;
const isType = (v: string | null): v is EventType => v !== null && (eventTypes as readonly string[]).includes(v);

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function AlertsPage() {
  const { t } = useTranslation();
  const title = t(usePageTitleKey());
  const settings = useLoadedSettings();
  const [params, setParams] = useSearchParams();
  const units = useUnits();
  const now = useNow();
  const text = useEventText();
  const [announcement, setAnnouncement] = useState('');

  const period: Period = isPeriod(params.get('period')) ? (params.get('period') as Period) : '7d';
  const askedImei = params.get('imei');
  const imei = askedImei && units.data?.some((u) => u.imei === askedImei) ? askedImei : null;
  const type = isType(params.get('type')) ? (params.get('type') as EventType) : null;
  // The period ends a minute ahead, so that events of the coming seconds fall in it; it moves on each refetch of the page.
  const range = useMemo(() => {
    const to = Date.now() + 60_000;
    return { from: new Date(to - PERIODS[period].ms).toISOString(), to: new Date(to).toISOString() };
    // `now` moves the window every 30 s.
  }, [period, now]); // eslint-disable-line react-hooks/exhaustive-deps
  const events = useEvents({ imei: imei ?? undefined, type: type ?? undefined, ...range });
  useLiveEventUpdates(useCallback((m: LiveEventMessage) => setAnnouncement(t('AlertsNew', { what: `${m.event.unitName}: ${text(m.event)}` })), [t, text]));

  const set = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };

  return (
    <Stack gap="md" className="events-page">
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Anchor component={Link} to={landingRoute(settings)} size="sm">
          <Group gap={4} wrap="nowrap">
            <IconArrowLeft size={16} aria-hidden />
            {t('AlertsBackToMap')}
          </Group>
        </Anchor>
      </Group>
      <Text c="dimmed">{t('AlertsIntro')}</Text>
      <PushControl />
      <Paper withBorder p="md" radius="md">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label={t('AlertsUnit')}
            data={[{ value: '', label: t('AlertsAllUnits') }, ...(units.data ?? []).map((u) => ({ value: u.imei, label: u.name }))]}
            value={imei ?? ''}
            onChange={(v) => set('imei', v || null)}
            searchable
            allowDeselect={false}
            w={{ base: '100%', xs: 240 }}
          />
          <Select
            label={t('AlertsType')}
            data={[{ value: '', label: t('AlertsAllTypes') }, ...eventTypes.map((ty) => ({ value: ty, label: t(EVENT_TYPE_KEYS[ty]) }))]}
            value={type ?? ''}
            onChange={(v) => set('type', v || null)}
            allowDeselect={false}
            w={{ base: '100%', xs: 220 }}
          />
          <Select
            label={t('AlertsPeriod')}
            data={(Object.keys(PERIODS) as Period[]).map((p) => ({ value: p, label: t(PERIODS[p].key) }))}
            value={period}
            onChange={(v) => set('period', v)}
            allowDeselect={false}
            w={{ base: '100%', xs: 200 }}
          />
        </Group>
      </Paper>
      <VisuallyHidden role="status" aria-live="polite" aria-atomic>
        {announcement}
      </VisuallyHidden>
      {events.isPending ? (
        <PageLoader />
      ) : events.isError ? (
        <LockedOrFailed error={events.error}>
<Alert color="red" role="alert" icon={<IconAlertTriangle size={18} aria-hidden />}>
          <Stack gap="xs" align="flex-start">
            <span>{errorMessage(events.error)}</span>
            <Button size="xs" variant="default" onClick={() => void events.refetch()}>
              {t('TryAgain')}
            </Button>
          </Stack>
        </Alert>
</LockedOrFailed>
      ) : events.data.events.length === 0 ? (
        <MessageState icon={<IconBellOff size={30} stroke={1.6} />} title={t('AlertsNone')} />
      ) : (
        <Paper withBorder px="md" py="xs" radius="md">
          {events.data.truncated ? (
            <Text size="sm" c="dimmed" py="xs">
              {t('AlertsTruncated', { count: EVENTS_MAX })}
            </Text>
          ) : null}
          <EventList events={events.data.events} now={now} showUnit={imei === null} />
        </Paper>
      )}
    </Stack>
  );
}
