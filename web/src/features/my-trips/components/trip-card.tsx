/**
 * One trip of My trips, as a card that fits a phone: when, from and to, distance, type, purpose,
 * note and passengers, with the changes waiting to be sent marked as such and a refused change
 * said with its reason and the values typed, to send again after editing or to discard.
 */
import { Alert, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconClockUp from '@tabler/icons-react/dist/esm/icons/IconClockUp.mjs';
import IconLock from '@tabler/icons-react/dist/esm/icons/IconLock.mjs';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TripUpdate } from '../../../../../shared/schemas/trips';
import { TripTypeBadge, tripTypeLabelKeys } from '../../triplog/components/trip-type';
import { useTripFormat } from '../../triplog/format';
import type { OutboxEntry, TripView } from '../outbox';

export function refusalText(t: (key: string) => string, exists: (key: string) => boolean, key: string): string {
  return exists(key) ? t(key) : t('SomethingWentWrong');
}

function typedText(t: (key: string) => string, fields: TripUpdate): string {
  const parts: string[] = [];
  if (fields.type !== undefined) parts.push(`${t('MyTripsType')}: ${t(tripTypeLabelKeys[fields.type])}`);
  if (fields.purpose !== undefined) parts.push(`${t('MyTripsPurpose')}: ${fields.purpose ?? '–'}`);
  if (fields.note !== undefined) parts.push(`${t('MyTripsNote')}: ${fields.note ?? '–'}`);
  if (fields.passengers !== undefined) parts.push(`${t('MyTripsPassengers')}: ${fields.passengers ?? '–'}`);
  return parts.join(' · ');
}

export interface TripCardProps {
  view: TripView;
  onEdit: () => void;
  onRetry: (entry: OutboxEntry) => void;
  onDiscard: (entry: OutboxEntry) => void;
}

export function TripCard({ view, onEdit, onRetry, onDiscard }: TripCardProps) {
  const { t, i18n } = useTranslation();
  const format = useTripFormat();
  const headingId = useId();
  const { trip, pending, refused } = view;
  const address = (value: string | null) => value ?? t('MyTripsUnknownAddress');
  return (
    <Paper component="article" withBorder radius="md" p="md" aria-labelledby={headingId} data-trip-id={trip.id}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Text id={headingId} component="h3" fw={650} size="md" m={0}>
            {format.dateTime(trip.startTime)} – {format.time(trip.stopTime)}
          </Text>
          <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
            {format.km(trip.distance)}
          </Text>
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('MyTripsFrom', { address: address(trip.startAddress) })}
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('MyTripsTo', { address: address(trip.stopAddress) })}
        </Text>
        <Group gap="xs">
          <TripTypeBadge type={trip.type} />
          {trip.attested ? (
            <Badge color="dark" variant="outline" radius="sm" tt="none" leftSection={<IconLock size={12} aria-hidden />}>
              {t('MyTripsAttested')}
            </Badge>
          ) : null}
          {pending.length > 0 ? (
            <Badge color="yellow" variant="filled" c="dark" radius="sm" tt="none" leftSection={<IconClockUp size={12} aria-hidden />}>
              {t('MyTripsPending')}
            </Badge>
          ) : null}
        </Group>
        {trip.purpose ? <Text size="sm">{`${t('MyTripsPurpose')}: ${trip.purpose}`}</Text> : null}
        {trip.note ? <Text size="sm">{`${t('MyTripsNote')}: ${trip.note}`}</Text> : null}
        {trip.passengers ? <Text size="sm">{`${t('MyTripsPassengers')}: ${trip.passengers}`}</Text> : null}
        {refused.map((entry) =>
          entry.change.kind === 'edit' && entry.refusal ? (
            <Alert key={entry.seq} color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title={t('MyTripsRefused')} mt={4}>
              <Stack gap="xs">
                <Text size="sm">{t('MyTripsRefusedReason', { reason: refusalText(t, (k) => i18n.exists(k), entry.refusal.key) })}</Text>
                <Text size="sm">{t('MyTripsRefusedValues', { values: typedText(t, entry.change.fields) })}</Text>
                <Group gap="xs">
                  {trip.attested ? null : (
                    <Button size="xs" onClick={() => onRetry(entry)}>
                      {t('MyTripsRetry')}
                    </Button>
                  )}
                  <Button size="xs" variant="default" onClick={() => onDiscard(entry)}>
                    {t('MyTripsDiscard')}
                  </Button>
                </Group>
              </Stack>
            </Alert>
          ) : null,
        )}
        {trip.attested ? null : (
          <Group justify="flex-end">
            <Button size="sm" variant="light" onClick={onEdit} aria-describedby={headingId}>
              {t('MyTripsEdit')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
