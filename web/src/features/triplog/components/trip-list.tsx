/**
 * The period's trips by day: a table on wide screens, cards on a phone. Each trip can be selected
 * (merge, split, routes on the map), edited in place (the row or card becomes the form), shown on
 * the map or opened in the map's history view. Attested trips carry a lock and no Edit.
 */
import { formatCoordinates } from '../../../ui/coordinates';
import { ActionIcon, Badge, Button, Checkbox, Group, Menu, Paper, Stack, Table, Text, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import IconArrowsSplit2 from '@tabler/icons-react/dist/esm/icons/IconArrowsSplit2.mjs';
import IconDots from '@tabler/icons-react/dist/esm/icons/IconDots.mjs';
import IconHistory from '@tabler/icons-react/dist/esm/icons/IconHistory.mjs';
import IconLock from '@tabler/icons-react/dist/esm/icons/IconLock.mjs';
import IconMapPin from '@tabler/icons-react/dist/esm/icons/IconMapPin.mjs';
import IconPencil from '@tabler/icons-react/dist/esm/icons/IconPencil.mjs';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Trip } from '../../../../../shared/schemas/trips';
import { useTripFormat, type TripFormat } from '../format';
import { historyUrl } from '../../history/history-url';
import type { TripDay } from '../trip-log';
import { TripEditForm, type TripEditFormProps } from './trip-edit-form';
import { TripTypeBadge } from './trip-type';

export interface TripListProps {
  days: readonly TripDay[];
  selected: ReadonlySet<string>;
  onToggle: (trip: Trip) => void;
  /** The trip whose form is open, if any. */
  editing: string | null;
  onEdit: (trip: Trip | null) => void;
  onShowRoute: (trip: Trip) => void;
  onSplit: (trip: Trip) => void;
  /** What the edit form needs besides the trip. */
  form: Omit<TripEditFormProps, 'trip' | 'onCancel'>;
  /** Cards instead of a table (phones). */
  compact: boolean;
  /** The account has the map, whose history view a trip can be opened in. */
  withHistory: boolean;
}

const editButtonId = (trip: Trip) => `trip-edit-${trip.id.replace(/[^\w-]/g, '_')}`;

/** Puts the focus back on a trip's Edit button (after its form closed). */
export function focusEditButton(tripId: string): void {
  requestAnimationFrame(() => document.getElementById(editButtonId({ id: tripId } as Trip))?.focus());
}

function place(address: string | null, lat: number, lon: number): string {
  return address ?? formatCoordinates(lat, lon);
}

function timeRange(trip: Trip, format: TripFormat): string {
  return `${format.time(trip.startTime)}–${format.time(trip.stopTime)}`;
}

function LockMark() {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('TripAttested')} withArrow>
      <span className="triplog-lock" tabIndex={0} aria-label={t('TripAttested')} role="img">
        <IconLock size={16} aria-hidden />
      </span>
    </Tooltip>
  );
}

function Details({ trip }: { trip: Trip }) {
  const { t } = useTranslation();
  const items: Array<[string, ReactNode]> = [];
  if (trip.purpose) items.push([t('TripPurpose'), trip.purpose]);
  if (trip.note) items.push([t('TripNote'), trip.note]);
  if (trip.driverName ?? trip.driverId) items.push([t('TripDriver'), trip.driverName ?? trip.driverId]);
  if (trip.passengers) items.push([t('TripPassengers'), trip.passengers]);
  if (trip.project) items.push([t('TripProject'), trip.project]);
  const missingPurpose = trip.type === 'business' && !trip.purpose;
  return (
    <dl className="triplog-details">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
      {missingPurpose ? (
        <div>
          <dt>{t('TripPurpose')}</dt>
          <dd className="triplog-missing">{t('TripPurposeMissing')}</dd>
        </div>
      ) : null}
    </dl>
  );
}

function TripActions({ trip, onEdit, onShowRoute, onSplit, withHistory }: { trip: Trip } & Pick<TripListProps, 'onEdit' | 'onShowRoute' | 'onSplit' | 'withHistory'>) {
  const { t } = useTranslation();
  const format = useTripFormat();
  const when = timeRange(trip, format);
  return (
    <Group gap={6} wrap="nowrap" justify="flex-end">
      {trip.attested ? (
        <LockMark />
      ) : (
        <Button
          id={editButtonId(trip)}
          size="compact-sm"
          variant="light"
          leftSection={<IconPencil size={15} aria-hidden />}
          onClick={() => onEdit(trip)}
          aria-label={t('TripEditLabel', { time: when })}
        >
          {t('TripEdit')}
        </Button>
      )}
      {withHistory ? (
        <Tooltip label={t('TripOpenHistory')} withArrow>
          <ActionIcon component={Link} to={historyUrl(trip.imei, trip.startTime, trip.stopTime)} variant="subtle" aria-label={t('TripOpenHistoryLabel', { time: when })}>
            <IconHistory size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      ) : null}
      <Menu position="bottom-end" withinPortal shadow="md">
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={t('TripMoreActions', { time: when })}>
            <IconDots size={18} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconMapPin size={16} aria-hidden />} onClick={() => onShowRoute(trip)}>
            {t('TripShowRoute')}
          </Menu.Item>
          {trip.merged && !trip.attested ? (
            <Menu.Item leftSection={<IconArrowsSplit2 size={16} aria-hidden />} onClick={() => onSplit(trip)}>
              {t('TripSplit')}
            </Menu.Item>
          ) : null}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

function SelectBox({ trip, selected, onToggle }: { trip: Trip; selected: boolean; onToggle: (trip: Trip) => void }) {
  const { t } = useTranslation();
  const format = useTripFormat();
  return (
    <Checkbox
      checked={selected}
      onChange={() => onToggle(trip)}
      aria-label={t('TripSelect', { time: timeRange(trip, format), from: place(trip.startAddress, trip.startLat, trip.startLon) })}
    />
  );
}

function Places({ trip }: { trip: Trip }) {
  const { t } = useTranslation();
  return (
    <div className="triplog-places">
      <Text size="sm">
        <VisuallyHidden>{t('TripFrom')} </VisuallyHidden>
        {place(trip.startAddress, trip.startLat, trip.startLon)}
      </Text>
      <Text size="sm">
        <span aria-hidden>→ </span>
        <VisuallyHidden>{t('TripTo')} </VisuallyHidden>
        {place(trip.stopAddress, trip.stopLat, trip.stopLon)}
      </Text>
    </div>
  );
}

/** The odometer at start and stop, when known (from the tracker, or counted from an odometer entry). */
function Odometers({ trip }: { trip: Trip }) {
  const { t } = useTranslation();
  const format = useTripFormat();
  if (trip.startOdometer === null && trip.stopOdometer === null) return null;
  return (
    <Text size="xs" c="dimmed">
      {t('TripOdometerRange', { from: format.odometer(trip.startOdometer), to: format.odometer(trip.stopOdometer) })}
    </Text>
  );
}

function DayHeading({ day, id }: { day: TripDay; id: string }) {
  const { t } = useTranslation();
  const format = useTripFormat();
  return (
    <Group justify="space-between" align="baseline" gap="xs" className="triplog-day-heading">
      <Title order={2} size="h4" id={id}>
        {format.day(day.day)}
      </Title>
      <Text size="sm" c="dimmed">
        {t('TripDaySummary', { count: day.trips.length, distance: format.km(day.distance) })}
      </Text>
    </Group>
  );
}

function TripTable({ day, props }: { day: TripDay; props: TripListProps }) {
  const { t } = useTranslation();
  const format = useTripFormat();
  const headingId = `trip-day-${day.day}`;
  return (
    <section aria-labelledby={headingId} className="triplog-day">
      <DayHeading day={day} id={headingId} />
      <Table.ScrollContainer minWidth={760} type="native">
        <Table verticalSpacing="xs" highlightOnHover aria-labelledby={headingId} className="triplog-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th className="triplog-col-select">
                <VisuallyHidden>{t('TripSelectColumn')}</VisuallyHidden>
              </Table.Th>
              <Table.Th>{t('TripTime')}</Table.Th>
              <Table.Th>{t('TripRoute')}</Table.Th>
              <Table.Th ta="end">{t('TripDistance')}</Table.Th>
              <Table.Th>{t('TripType')}</Table.Th>
              <Table.Th>{t('TripDetails')}</Table.Th>
              <Table.Th ta="end">
                <VisuallyHidden>{t('TripActions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {day.trips.map((trip) => (
              <Fragment key={trip.id}>
                {props.editing === trip.id ? (
                  <Table.Tr className="triplog-editing">
                    <Table.Td colSpan={7}>
                      <TripEditForm trip={trip} {...props.form} onCancel={() => props.onEdit(null)} />
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  <Table.Tr data-selected={props.selected.has(trip.id) || undefined} data-trip-id={trip.id}>
                    <Table.Td>
                      <SelectBox trip={trip} selected={props.selected.has(trip.id)} onToggle={props.onToggle} />
                    </Table.Td>
                    <Table.Td className="triplog-nowrap">
                      <Text size="sm" fw={600}>
                        {timeRange(trip, format)}
                      </Text>
                      {trip.merged ? (
                        <Badge size="xs" variant="outline" color="gray" radius="sm" tt="none">
                          {t('TripMerged')}
                        </Badge>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Places trip={trip} />
                    </Table.Td>
                    <Table.Td ta="end" className="triplog-nowrap">
                      <Text size="sm">{format.km(trip.distance)}</Text>
                      <Odometers trip={trip} />
                    </Table.Td>
                    <Table.Td className="triplog-type">
                      <TripTypeBadge type={trip.type} />
                    </Table.Td>
                    <Table.Td>
                      <Details trip={trip} />
                    </Table.Td>
                    <Table.Td>
                      <TripActions trip={trip} onEdit={props.onEdit} onShowRoute={props.onShowRoute} onSplit={props.onSplit} withHistory={props.withHistory} />
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </section>
  );
}

function TripCard({ trip, props }: { trip: Trip; props: TripListProps }) {
  const { t } = useTranslation();
  const format = useTripFormat();
  const selected = props.selected.has(trip.id);
  if (props.editing === trip.id) {
    return (
      <Paper withBorder p="sm" radius="md" component="li" className="triplog-card" data-editing>
        <TripEditForm trip={trip} {...props.form} onCancel={() => props.onEdit(null)} />
      </Paper>
    );
  }
  return (
    <Paper withBorder p="sm" radius="md" component="li" className="triplog-card" data-selected={selected || undefined} data-trip-id={trip.id}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <div className="triplog-card-select">
          <SelectBox trip={trip} selected={selected} onToggle={props.onToggle} />
        </div>
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Group gap={6}>
              <Text fw={600}>{timeRange(trip, format)}</Text>
              {trip.merged ? (
                <Badge size="xs" variant="outline" color="gray" radius="sm" tt="none">
                  {t('TripMerged')}
                </Badge>
              ) : null}
            </Group>
            <TripTypeBadge type={trip.type} />
          </Group>
          <Places trip={trip} />
          <Group gap={8}>
            <Text size="sm">{format.km(trip.distance)}</Text>
            <Odometers trip={trip} />
          </Group>
          <Details trip={trip} />
          <TripActions trip={trip} onEdit={props.onEdit} onShowRoute={props.onShowRoute} onSplit={props.onSplit} withHistory={props.withHistory} />
        </Stack>
      </Group>
    </Paper>
  );
}

export function TripList(props: TripListProps) {
  if (!props.compact) return props.days.map((day) => <TripTable key={day.day} day={day} props={props} />);
  return props.days.map((day) => {
    const headingId = `trip-day-${day.day}`;
    return (
      <section key={day.day} aria-labelledby={headingId} className="triplog-day">
        <DayHeading day={day} id={headingId} />
        <Stack component="ul" gap="sm" className="triplog-cards" aria-labelledby={headingId}>
          {day.trips.map((trip) => (
            <TripCard key={trip.id} trip={trip} props={props} />
          ))}
        </Stack>
      </section>
    );
  });
}

