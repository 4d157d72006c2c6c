/**
 * One day's bookings in a cell of the week grid or the month calendar: at most two (spec section 9),
 * each a button that opens it, then '+N more' whose list shows on hover and on keyboard focus.
 */
import { Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BOOKINGS_PER_CELL, type Booking } from '../../../../../shared/schemas/car-schedule';

/** The element the '+N more' lists open in (rendered by the page, inside main). */
export const BOOKING_LIST_LAYER = 'cs-booking-lists';

interface Props {
  bookings: readonly Booking[];
  /** The text of a booking in the cell: its times, and in the month its registration number. */
  label: (b: Booking) => string;
  /** What the '+N more' list names (the vehicle, or in the month nothing) and the day. */
  moreLabel: (count: number) => string;
  onOpen: (b: Booking) => void;
}

export function DayBookings({ bookings, label, moreLabel, onOpen }: Props) {
  const { t } = useTranslation();
  if (!bookings.length) return null;
  const shown = bookings.slice(0, BOOKINGS_PER_CELL);
  const more = bookings.slice(BOOKINGS_PER_CELL);
  const describe = (b: Booking) => t('CsBookingLabel', { start: b.start_time, end: b.end_time, driver: b.driver_name, purpose: b.purpose });
  return (
    <Stack gap={4}>
      {shown.map((b) => (
        <UnstyledButton key={b.id} className="cs-booking" data-mine={b.editable || undefined} onClick={() => onOpen(b)} aria-label={`${label(b)}, ${describe(b)}`}>
          {label(b)}
        </UnstyledButton>
      ))}
      {more.length ? (
        <Tooltip
          multiline
          withArrow
          events={{ hover: true, focus: true, touch: true }}
          // Inside the page's main landmark, where screen readers meet it with the grid.
          portalProps={{ target: `#${BOOKING_LIST_LAYER}` }}
          label={
            <Stack gap={2} component="ul" className="cs-more-list">
              {more.map((b) => (
                <Text key={b.id} component="li" size="xs">
                  {label(b)} {b.driver_name}
                </Text>
              ))}
            </Stack>
          }
        >
          <UnstyledButton className="cs-more" aria-label={`${t('CsMore', { count: more.length })}: ${moreLabel(more.length)}: ${more.map((b) => `${label(b)} ${b.driver_name}`).join('; ')}`}>
            {t('CsMore', { count: more.length })}
          </UnstyledButton>
        </Tooltip>
      ) : null}
    </Stack>
  );
}
