/**
 * My booking's month (spec sections 2 and 9): 42 cells, weeks from Monday; each day shows at most two
 * of the caller's bookings (registration number and time range) and '+N more'.
 */
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Booking } from '../../../../../shared/schemas/car-schedule';
import { DayBookings } from './day-bookings';
import { dayTitle } from './week-grid';

interface Props {
  month: string;
  days: readonly string[];
  bookings: readonly Booking[];
  today: string;
  locale: string;
  onOpen: (b: Booking) => void;
}

export function MonthCalendar({ month, days, bookings, today, locale, onOpen }: Props) {
  const { t } = useTranslation();
  const weekdays = days.slice(0, 7).map((d) => new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(new Date(`${d}T00:00:00Z`)));
  const monthName = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`));
  return (
    <div className="cs-calendar" role="grid" aria-label={t('CsMonthCaption', { month: monthName })}>
      <div role="row" style={{ display: 'contents' }}>
        {weekdays.map((w) => (
          <div key={w} role="columnheader" className="cs-weekday">
            {w}
          </div>
        ))}
      </div>
      {Array.from({ length: days.length / 7 }, (_, week) => (
        <div key={week} role="row" style={{ display: 'contents' }}>
          {days.slice(week * 7, week * 7 + 7).map((day) => {
            const mine = bookings.filter((b) => b.date === day);
            return (
              <div
                key={day}
                role="gridcell"
                className={`cs-calendar-cell${day === today ? ' cs-today' : ''}`}
                data-outside={day.slice(0, 7) !== month || undefined}
                aria-current={day === today ? 'date' : undefined}
                aria-label={mine.length ? undefined : `${dayTitle(day, locale, 'long')}: ${t('CsNoBookings')}`}
              >
                <Text size="xs" fw={day === today ? 700 : 500} c={day.slice(0, 7) === month ? undefined : 'dimmed'} aria-hidden={mine.length ? undefined : true}>
                  {Number(day.slice(8))}
                </Text>
                <DayBookings
                  bookings={mine}
                  label={(b) => `${b.registration_number} ${b.start_time}-${b.end_time}`}
                  moreLabel={(count) => t('CsMoreLabel', { count, vehicle: '', day: dayTitle(day, locale, 'long') })}
                  onOpen={onOpen}
                />
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}
