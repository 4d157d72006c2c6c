/** The selected unit's events of the last 7 days on the map, kept current by the live channel. */
import { Alert, Anchor, Button, Loader, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../app/paths';
import { errorMessage } from '../../../app/api-client';
import { useEvents, useLiveEventUpdates } from '../api/event-api';
import { EventList } from './event-list';
import '../events.css';
import { LockedOrFailed } from '../../unit-lock/components/tracker-locked';

const WEEK_MS = 7 * 86_400_000;

export function UnitEvents({ imei, now }: { imei: string; now: number }) {
  const { t } = useTranslation();
  // The period is fixed while the tab is open (a live event refetches it; a new hour does not need to).
  const period = useMemo(() => {
    const to = new Date(Date.now() + 60_000);
    return { from: new Date(to.getTime() - WEEK_MS).toISOString(), to: to.toISOString() };
  }, []);
  const events = useEvents({ imei, ...period });
  useLiveEventUpdates();
  return (
    <Stack gap="sm">
      {events.isPending ? (
        <Loader size="sm" role="progressbar" aria-label={t('Loading')} />
      ) : events.isError ? (
        <LockedOrFailed error={events.error}>
<Alert color="red" variant="light" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(events.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void events.refetch()}>
              {t('TryAgain')}
            </Button>
          </Stack>
        </Alert>
</LockedOrFailed>
      ) : events.data.events.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('MapEventsNone')}
        </Text>
      ) : (
        <EventList events={events.data.events.slice(0, 20)} now={now} showUnit={false} />
      )}
      <Anchor component={Link} size="sm" to={`${paths.alerts}?imei=${encodeURIComponent(imei)}`}>
        {t('MapEventsAll')}
      </Anchor>
    </Stack>
  );
}
