/**
 * /user/fleet-overview: how the fleet is doing (GET /api/v1/user/fleet-overview). Every figure is a
 * link to the page that explains it: the map filtered by status, the trip log of the period, the
 * alerts, the attest status. An admin may make it the page they land on after login (profile
 * `landingPage`).
 */
import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Switch, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconChevronRight from '@tabler/icons-react/dist/esm/icons/IconChevronRight.mjs';
import IconTruck from '@tabler/icons-react/dist/esm/icons/IconTruck.mjs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FleetOverview } from '../../../../../shared/schemas/fleet-overview';
import { monthDays } from '../../../../../shared/local-time';
import { STATUS_COLORS, unitStatuses, type UnitStatus } from '../../../../../shared/unit-status';
import { featureEnabled } from '../../../app/access';
import { errorMessage } from '../../../app/api-client';
import { useLoadedSettings } from '../../../app/guards';
import { paths } from '../../../app/paths';
import { intlLocale } from '../../../i18n/i18n';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { updateProfile, useProfile } from '../../auth/api/profile';
import { settingsQueryKey } from '../../auth/api/settings';
import { useFleetOverview } from '../api/fleet-api';
import { offeredReportKinds } from '../../reports/offered-kinds';

const statusKeys: Readonly<Record<UnitStatus, string>> = { moving: 'FleetMoving', idling: 'FleetIdling', parked: 'FleetParked', offline: 'FleetOffline' };

/**
 * One figure: its label, value and detail, as a link to the page that explains it when there is
 * one. The link is named by what it shows, then where it leads (hidden but read out), so that
 * figures leading to the same page differ and the visible text is the start of the name.
 */
function Figure({ label, value, detail, to, linkLabel }: { label: string; value: string; detail?: ReactNode; to: string | null; linkLabel?: string }) {
  const body = (
    <Stack gap={2}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        {to ? <IconChevronRight size={16} aria-hidden color="var(--mantine-color-dimmed)" style={{ flexShrink: 0 }} /> : null}
      </Group>
      <Text fz={28} fw={700} lh={1.2}>
        {value}
      </Text>
      {detail ? <Text size="sm">{detail}</Text> : null}
    </Stack>
  );
  return (
    <Card withBorder radius="md" padding="md">
      {to ? (
        <Anchor component={Link} to={to} underline="never" c="inherit" display="block">
          {body}
          {linkLabel ? <VisuallyHidden>{linkLabel}</VisuallyHidden> : null}
        </Anchor>
      ) : (
        body
      )}
    </Card>
  );
}

const withQuery = (path: string, query: Record<string, string>) => `${path}?${new URLSearchParams(query).toString()}`;

function LandingSwitch() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const profile = useProfile();
  // The choice shows at once, in the click's own render: the mutation's pending state reaches the
  // component a moment later, and a controlled switch would flip back until then.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const mutation = useMutation({
    mutationFn: (on: boolean) => {
      const p = profile.data;
      if (!p) throw new Error('profile not loaded');
      return updateProfile({ FirstName: p.FirstName, LastName: p.LastName, phone: p.phone, lang: p.lang, EnableTwoFactorAuth: p.EnableTwoFactorAuth, landingPage: on ? 'fleetOverview' : 'default' });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(['user', 'profile'], saved);
      void queryClient.invalidateQueries({ queryKey: settingsQueryKey });
      notifications.show({ color: 'green', message: t(saved.landingPage === 'fleetOverview' ? 'FleetLandingSaved' : 'FleetLandingRemoved') });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
    onSettled: () => setWanted(null),
  });
  if (!profile.data) return null;
  return (
    <Switch
      label={t('FleetMakeLanding')}
      checked={wanted ?? profile.data.landingPage === 'fleetOverview'}
      disabled={wanted !== null}
      onChange={(event) => {
        const on = event.currentTarget.checked;
        setWanted(on);
        mutation.mutate(on);
      }}
    />
  );
}

function Figures({ data }: { data: FleetOverview }) {
  const { t, i18n } = useTranslation();
  const settings = useLoadedSettings();
  const locale = intlLocale(i18n.language === 'sv' || i18n.language === 'no' ? i18n.language : 'en');
  const number = (n: number, digits = 0) => n.toLocaleString(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const hasMap = featureEnabled('realtimeMap', settings);
  // The trips of every unit: the summary report by unit explains a fleet's figure; the trip log shows one unit's.
  const hasSummary = offeredReportKinds(settings).includes('summary');
  const monthName = (month: string) => new Date(`${month}-15T12:00:00Z`).toLocaleDateString(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const unattested = data.attestation?.months ?? [];
  const newest = unattested[0];
  const attestLink = newest
    ? settings.is_admin
      ? withQuery(paths.attestStatus, { month: newest.month })
      : withQuery(paths.createTriplog, { from: monthDays(newest.month).first, to: monthDays(newest.month).last })
    : null;
  return (
    <Stack gap="lg">
      <section aria-labelledby="fleet-status">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h4" id="fleet-status">
            {t('FleetStatusHeading')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('FleetUnitsTotal', { count: data.units })}
          </Text>
        </Group>
        {/* Without the real-time map (the account's or the feature profile's) the server answers no status. */}
        {data.status ? (
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          {unitStatuses.map((status) => (
            <Figure
              key={status}
              label={t(statusKeys[status])}
              value={number(data.status?.[status] ?? 0)}
              detail={<span
                  aria-hidden
                  style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 6, border: `2px solid ${STATUS_COLORS[status]}`, background: status === 'offline' ? 'transparent' : STATUS_COLORS[status] }}
                />}
              to={hasMap ? withQuery(paths.realtimeTracking, { status }) : null}
              linkLabel={t('FleetShowOnMap', { status: t(statusKeys[status]).toLowerCase() })}
            />
          ))}
        </SimpleGrid>
        ) : null}
      </section>
      {data.today && data.week ? (
      <section aria-labelledby="fleet-trips">
        <Title order={2} size="h4" id="fleet-trips" mb="xs">
          {t('FleetTripsHeading')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          {([['today', data.today], ['week', data.week]] as const).map(([period, figures]) => (
            <Figure
              key={period}
              label={t(period === 'today' ? 'FleetToday' : 'FleetThisWeek')}
              value={t('FleetDistance', { distance: number(figures.distance, 1) })}
              detail={t('FleetTrips', { count: figures.trips })}
              to={withQuery(hasSummary ? paths.reports : paths.createTriplog, { ...(hasSummary ? { kind: 'summary' } : {}), from: figures.from, to: figures.to })}
              linkLabel={hasSummary ? t('FleetTripsByUnit') : t('Triplog')}
            />
          ))}
        </SimpleGrid>
      </section>
      ) : null}
      <section aria-labelledby="fleet-follow-up">
        <Title order={2} size="h4" id="fleet-follow-up" mb="xs">
          {t('FleetFollowUpHeading')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {data.alarms ? (
            <Figure
              label={t('FleetAlarms')}
              value={data.alarms.truncated ? t('FleetAlarmsMore', { count: data.alarms.count }) : number(data.alarms.count)}
              to={withQuery(paths.alerts, { period: '24h' })}
              linkLabel={t('Alerts')}
            />
          ) : null}
          <Figure
            label={t('FleetService')}
            value={number(data.service.units)}
            detail={data.service.overdue ? t('FleetServiceOverdue', { count: data.service.overdue }) : undefined}
            // The alerts page is the alarms feature's: without it the figure links nowhere.
            to={data.alarms ? withQuery(paths.alerts, { period: '30d', type: 'serviceDue' }) : null}
            linkLabel={t('Alerts')}
          />
          {data.attestation ? (
          <Figure
            label={t('FleetUnattested')}
            value={number(unattested.length)}
            detail={
              unattested.length
                ? unattested.map((m) => t('FleetUnattestedMonth', { month: monthName(m.month), count: m.units })).join(', ')
                : t('FleetUnattestedOf', { count: data.attestation.checked })
            }
            to={attestLink}
            linkLabel={t(settings.is_admin ? 'AttestStatus' : 'Triplog')}
          />
          ) : null}
        </SimpleGrid>
      </section>
    </Stack>
  );
}

export function FleetOverviewPage() {
  const { t, i18n } = useTranslation();
  const settings = useLoadedSettings();
  const overview = useFleetOverview();
  const locale = intlLocale(i18n.language === 'sv' || i18n.language === 'no' ? i18n.language : 'en');

  let content: ReactNode;
  if (overview.data === undefined) {
    content = overview.isError ? (
      <Alert color="red" role="alert" icon={<IconAlertTriangle size={20} aria-hidden />} title={t('FleetLoadFailed')} maw={640}>
        <Stack gap="sm" align="flex-start">
          <span>{errorMessage(overview.error)}</span>
          <Button variant="default" size="xs" onClick={() => void overview.refetch()} loading={overview.isFetching}>
            {t('TryAgain')}
          </Button>
        </Stack>
      </Alert>
    ) : (
      <PageLoader />
    );
  } else if (overview.data.units === 0) {
    content = (
      <MessageState icon={<IconTruck size={30} stroke={1.6} />} title={t('FleetEmptyTitle')}>
        {t('FleetEmpty')}
      </MessageState>
    );
  } else {
    content = <Figures data={overview.data} />;
  }

  return (
    <Stack gap="md" className="fleet-page">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        {overview.data ? (
          <Text size="sm" c="dimmed" role="status">
            {t('FleetUpdated', { time: new Date(overview.dataUpdatedAt).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' }) })}
          </Text>
        ) : (
          <span />
        )}
        <Group gap="md">
          {settings.is_admin ? <LandingSwitch /> : null}
          <Button variant="default" size="xs" onClick={() => void overview.refetch()} loading={overview.isFetching && overview.data !== undefined}>
            {t('FleetRefresh')}
          </Button>
        </Group>
      </Group>
      {content}
    </Stack>
  );
}
