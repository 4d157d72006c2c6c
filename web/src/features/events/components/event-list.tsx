/**
 * Events as a list: what happened, to which unit, when, and whether it was sent as an alarm, with
 * a link to the map's history around it. Used by /user/alerts and by the map's unit details.
 */
import { Anchor, Badge, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconBattery1 from '@tabler/icons-react/dist/esm/icons/IconBattery1.mjs';
import IconBolt from '@tabler/icons-react/dist/esm/icons/IconBolt.mjs';
import IconClockPause from '@tabler/icons-react/dist/esm/icons/IconClockPause.mjs';
import IconDoorEnter from '@tabler/icons-react/dist/esm/icons/IconDoorEnter.mjs';
import IconDoorExit from '@tabler/icons-react/dist/esm/icons/IconDoorExit.mjs';
import IconGauge from '@tabler/icons-react/dist/esm/icons/IconGauge.mjs';
import IconHome from '@tabler/icons-react/dist/esm/icons/IconHome.mjs';
import IconShieldLock from '@tabler/icons-react/dist/esm/icons/IconShieldLock.mjs';
import IconSteeringWheel from '@tabler/icons-react/dist/esm/icons/IconSteeringWheel.mjs';
import IconToggleRight from '@tabler/icons-react/dist/esm/icons/IconToggleRight.mjs';
import IconTool from '@tabler/icons-react/dist/esm/icons/IconTool.mjs';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { EventType, PortalEvent } from '../../../../../shared/schemas/events';
import { useLoadedSettings } from '../../../app/guards';
import { canOpenHistory, historyUrl } from '../../history/history-url';
import { useMapFormat } from '../../map/use-map-format';
import { useEventText } from '../event-text';

type Icon = ComponentType<{ size?: number; 'aria-hidden'?: boolean }>;

const ICONS: { readonly [T in EventType]: { icon: Icon; color: string } } = {
  geofenceEnter: { icon: IconDoorEnter, color: 'teal' },
  geofenceExit: { icon: IconDoorExit, color: 'orange' },
  overspeed: { icon: IconGauge, color: 'red' },
  lowBattery: { icon: IconBattery1, color: 'yellow' },
  powerCut: { icon: IconBolt, color: 'red' },
  dinChange: { icon: IconToggleRight, color: 'blue' },
  theftMovement: { icon: IconShieldLock, color: 'red' },
  sensorAlarm: { icon: IconAlertTriangle, color: 'orange' },
  notHome: { icon: IconHome, color: 'orange' },
  serviceDue: { icon: IconTool, color: 'gray' },
  harshAcceleration: { icon: IconSteeringWheel, color: 'grape' },
  harshBraking: { icon: IconSteeringWheel, color: 'grape' },
  harshCornering: { icon: IconSteeringWheel, color: 'grape' },
  overspeedEpisode: { icon: IconGauge, color: 'orange' },
  idling: { icon: IconClockPause, color: 'gray' },
};

/** The map's history from 15 minutes before to 15 minutes after the event. */
const AROUND_MS = 15 * 60_000;

export function EventList({ events, now, showUnit }: { events: readonly PortalEvent[]; now: number; showUnit: boolean }) {
  const { t } = useTranslation();
  const text = useEventText();
  const format = useMapFormat();
  const settings = useLoadedSettings();
  const history = canOpenHistory(settings);
  return (
    <Stack component="ul" gap="xs" className="events-list">
      {events.map((event) => {
        const { icon: TypeIcon, color } = ICONS[event.type];
        const at = Date.parse(event.time);
        return (
          <li key={event.id} className="events-item">
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <ThemeIcon variant="light" color={color} radius="xl" size="lg" aria-hidden>
                <TypeIcon size={18} aria-hidden />
              </ThemeIcon>
              <Stack gap={2} className="events-body">
                <Text fw={600} size="sm">
                  {text(event)}
                </Text>
                <Group gap="xs" wrap="wrap">
                  {showUnit ? (
                    <Text size="sm" c="dimmed">
                      {event.unitName}
                    </Text>
                  ) : null}
                  <Text size="sm" c="dimmed">
                    <time dateTime={event.time} title={format.absolute(event.time)}>
                      {format.absolute(event.time)} ({format.relative(event.time, now)})
                    </time>
                  </Text>
                </Group>
                <Group gap="xs" wrap="wrap">
                  <Badge variant="light" color={event.alarm ? 'red' : 'gray'} size="sm">
                    {event.alarm ? t('AlertsAlarmSent') : t('AlertsRecordedOnly')}
                  </Badge>
                  {history && event.lat !== null ? (
                    <Anchor component={Link} size="sm" to={historyUrl(event.imei, at - AROUND_MS, Math.min(at + AROUND_MS, now))}>
                      {t('AlertsShowOnMap')}
                    </Anchor>
                  ) : null}
                </Group>
              </Stack>
            </Group>
          </li>
        );
      })}
    </Stack>
  );
}
