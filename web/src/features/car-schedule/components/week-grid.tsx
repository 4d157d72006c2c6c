/**
 * The week grid (spec section 2): a row per vehicle (name, registration number, model), a column
 * per day from Monday to Sunday with the day's bookings (start - end, at most two and '+N more'),
 * and a button per future day to book the vehicle then. On a phone the grid scrolls sideways in
 * its own focusable region with the vehicle column pinned, and opens scrolled to today: the days
 * already past of the current week are to the left, not in the way.
 */
import { Button, Group, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import IconArrowDown from '@tabler/icons-react/dist/esm/icons/IconArrowDown.mjs';
import IconArrowUp from '@tabler/icons-react/dist/esm/icons/IconArrowUp.mjs';
import IconPlus from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Booking, VehicleSchedule } from '../../../../../shared/schemas/car-schedule';
import { DayBookings } from './day-bookings';

export type SortColumn = 'Name' | 'RegistrationNumber' | 'Model';
export interface Sort {
  column: SortColumn;
  ascending: boolean;
}
const columnKeys: Readonly<Record<SortColumn, string>> = { Name: 'CsColumnName', RegistrationNumber: 'CsColumnRegistration', Model: 'CsColumnModel' };

interface Props {
  vehicles: readonly VehicleSchedule[];
  days: readonly string[];
  today: string;
  locale: string;
  sort: Sort;
  onSort: (column: SortColumn) => void;
  onOpen: (b: Booking) => void;
  onNew: (imei: string, day: string) => void;
}

export function dayTitle(day: string, locale: string, weekday: 'short' | 'long' = 'short'): string {
  return new Intl.DateTimeFormat(locale, { weekday, day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}

export function WeekGrid({ vehicles, days, today, locale, sort, onSort, onOpen, onNew }: Props) {
  const { t } = useTranslation();
  const first = days[0] ?? '';
  const last = days[days.length - 1] ?? '';
  const scroller = useRef<HTMLDivElement>(null);
  // Today's column first beside the pinned vehicle column, as the week opens (a no-op where the whole week fits).
  const showsToday = days.includes(today);
  useLayoutEffect(() => {
    const region = scroller.current;
    const head = region?.querySelector<HTMLElement>('th.cs-today');
    const pinned = region?.querySelector<HTMLElement>('th.cs-vehicle');
    if (!region || !head || !pinned) return;
    region.scrollLeft = Math.max(0, head.offsetLeft - pinned.offsetWidth);
  }, [first, showsToday]);
  return (
    <div ref={scroller} className="cs-scroll" tabIndex={0} role="region" aria-label={t('CsTableCaption', { from: dayTitle(first, locale, 'long'), to: dayTitle(last, locale, 'long') })}>
      <table className="cs-grid">
        <VisuallyHidden component="caption">{t('CsTableCaption', { from: dayTitle(first, locale, 'long'), to: dayTitle(last, locale, 'long') })}</VisuallyHidden>
        <thead>
          <tr>
            <th scope="col" className="cs-vehicle" aria-sort={sort.ascending ? 'ascending' : 'descending'}>
              <Stack gap={2} align="flex-start">
                {(Object.keys(columnKeys) as SortColumn[]).map((column) => (
                  <UnstyledButton key={column} onClick={() => onSort(column)} aria-label={t('CsSortBy', { column: t(columnKeys[column]) })} aria-pressed={sort.column === column}>
                    <Group gap={4} wrap="nowrap">
                      <Text size="xs" fw={sort.column === column ? 700 : 500}>
                        {t(columnKeys[column])}
                      </Text>
                      {sort.column === column ? sort.ascending ? <IconArrowUp size={12} aria-hidden /> : <IconArrowDown size={12} aria-hidden /> : null}
                    </Group>
                  </UnstyledButton>
                ))}
              </Stack>
            </th>
            {days.map((day) => (
              <th key={day} scope="col" className={`cs-day-head${day === today ? ' cs-today' : ''}`} aria-current={day === today ? 'date' : undefined}>
                {dayTitle(day, locale)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {vehicles.map((v) => (
            <tr key={v.Imei}>
              <th scope="row" className="cs-vehicle">
                <Text size="sm" fw={600} lineClamp={2}>
                  {v.Name}
                </Text>
                <Text size="xs">{v.RegistrationNumber}</Text>
                {v.Model ? (
                  <Text size="xs" c="dimmed">
                    {v.Model}
                  </Text>
                ) : null}
              </th>
              {days.map((day) => (
                <td key={day} className={day === today ? 'cs-today' : undefined}>
                  <Stack gap={4}>
                    <DayBookings
                      bookings={v.Schedule.filter((b) => b.date === day)}
                      label={(b) => `${b.start_time} - ${b.end_time}`}
                      moreLabel={(count) => t('CsMoreLabel', { count, vehicle: v.Name, day: dayTitle(day, locale, 'long') })}
                      onOpen={onOpen}
                    />
                    {day >= today ? (
                      <Button size="compact-xs" variant="subtle" color="gray" onClick={() => onNew(v.Imei, day)} aria-label={t('CsBookDay', { vehicle: v.Name, day: dayTitle(day, locale, 'long') })}>
                        <IconPlus size={14} aria-hidden />
                      </Button>
                    ) : null}
                  </Stack>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
