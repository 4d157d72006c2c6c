/**
 * The selected unit: its latest state (speed, ignition, battery, last seen, address), the Follow
 * toggle, and the tabs for commands, events and history, whose contents the page provides.
 */
import { ActionIcon, Anchor, Group, Stack, Switch, Tabs, Text, Title } from '@mantine/core';
import IconArrowLeft from '@tabler/icons-react/dist/esm/icons/IconArrowLeft.mjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RealtimeUnit, UnitState } from '../../../../../shared/schemas/tracking';
import { unitStatus } from '../../../../../shared/unit-status';
import { paths } from '../../../app/paths';
import { useReverseGeocode } from '../api/map-api';
import { useMapFormat } from '../use-map-format';
import { STATUS_LABEL_KEYS, StatusDot } from './status-dot';
import { UnitAvatar } from './unit-avatar';
import { FirstRunPanel } from '../../unit-lock/components/first-run-panel';
import { TrackerLocked } from '../../unit-lock/components/tracker-locked';

export type DetailsTab = 'details' | 'commands' | 'events' | 'history';

interface UnitDetailsProps {
  unit: RealtimeUnit;
  now: number;
  follow: boolean;
  onFollowChange(follow: boolean): void;
  tab: DetailsTab;
  onTabChange(tab: DetailsTab): void;
  onBack(): void;
  commands: ReactNode;
  events: ReactNode;
  history: ReactNode;
}

function Address({ state }: { state: UnitState }) {
  const { t } = useTranslation();
  const geocode = useReverseGeocode(state);
  if (geocode.isError && !geocode.data) return <>{t('MapAddressFailed')}</>;
  if (!geocode.data) return <>{t('MapAddressLoading')}</>;
  return <>{geocode.data.address ?? t('MapAddressUnknown')}</>;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rt-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function StateFacts({ unit, state, now }: { unit: RealtimeUnit; state: UnitState; now: number }) {
  const { t } = useTranslation();
  const format = useMapFormat();
  const ignition = state.ignition === null ? t('MapNotReported') : state.ignition ? t('MapOn') : t('MapOff');
  const status = unitStatus(unit, now);
  return (
    <dl className="rt-facts">
      <Fact label={t('MapStatus')}>
        <span className="rt-status-text" data-status={status}>
          <StatusDot status={status} />
          {t(STATUS_LABEL_KEYS[status])}
        </span>
      </Fact>
      <Fact label={t('MapSpeed')}>{format.speed(state.speed)}</Fact>
      <Fact label={t('MapIgnition')}>{ignition}</Fact>
      <Fact label={t('MapBattery')}>{format.volts(state.batVolts)}</Fact>
      <Fact label={t('MapExternalPower')}>{format.volts(state.extVolts)}</Fact>
      <Fact label={t('MapLastSeen')}>
        <time dateTime={state.lastSeen} title={format.absolute(state.lastSeen)}>
          {format.relative(state.lastSeen, now)}
        </time>
      </Fact>
      {unit.driver ? <Fact label={t('MapDriver')}>{unit.driver}</Fact> : null}
      <Fact label={t('MapAddress')}>
        <span className="rt-address">
          <Address state={state} />
        </span>
      </Fact>
      <Fact label={t('MapCoordinates')}>{format.coordinates(state.lat, state.lon)}</Fact>
    </dl>
  );
}

export function UnitDetails({ unit, now, follow, onFollowChange, tab, onTabChange, onBack, commands, events, history }: UnitDetailsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" className="rt-details">
      <Group gap="sm" wrap="nowrap" align="center">
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('MapBackToList')} onClick={onBack}>
          <IconArrowLeft size={20} aria-hidden />
        </ActionIcon>
        <UnitAvatar unit={unit} size={36} />
        <div className="rt-details-title">
          <Title order={2} size="h4" lineClamp={1}>
            {unit.name}
          </Title>
          {unit.registrationNumber ? (
            <Text size="sm" c="dimmed">
              {unit.registrationNumber}
            </Text>
          ) : null}
        </div>
      </Group>
      <Group justify="space-between" gap="sm">
        <Switch label={t('MapFollow')} checked={follow} disabled={!unit.state} onChange={(event) => onFollowChange(event.currentTarget.checked)} />
        <Anchor component={Link} to={`${paths.editTerminal}?${new URLSearchParams({ imei: unit.imei }).toString()}`} size="sm">
          {t('EditUnit')}
        </Anchor>
      </Group>
      <Tabs value={tab} onChange={(value) => onTabChange((value as DetailsTab | null) ?? 'details')} keepMounted={false}>
        {/* One row at every width and language: the tabs scroll sideways rather than wrap (map.css). */}
        <Tabs.List grow className="rt-details-tabs">
          <Tabs.Tab value="details">{t('MapDetailsTab')}</Tabs.Tab>
          <Tabs.Tab value="commands">{t('MapCommandsTab')}</Tabs.Tab>
          <Tabs.Tab value="events">{t('MapEvents')}</Tabs.Tab>
          <Tabs.Tab value="history" disabled={!unit.state}>
            {t('MapHistoryTab')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="details" pt="sm">
          {unit.state ? (
            <StateFacts unit={unit} state={unit.state} now={now} />
          ) : unit.lockedBy !== undefined ? (
            <TrackerLocked lockedBy={unit.lockedBy} />
          ) : (
            <FirstRunPanel units={[unit]} />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="commands" pt="sm">
          {commands}
        </Tabs.Panel>
        <Tabs.Panel value="events" pt="sm">
          {events}
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="sm">
          {history}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
