/**
 * Car booking (/user/car-schedule, spec sections 2, 5, 6 and 9): the week grid of the vehicles the
 * caller may book, sortable and searchable, week by week or from a date; My booking, the caller's
 * own bookings in a month calendar; the new and edit booking modals and the delete confirmation.
 * The route exists only while the account has car booking (the guard sends everybody else to the map).
 */
import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import IconAlertTriangle from '@tabler/icons-react/dist/esm/icons/IconAlertTriangle.mjs';
import IconCalendar from '@tabler/icons-react/dist/esm/icons/IconCalendar.mjs';
import IconCar from '@tabler/icons-react/dist/esm/icons/IconCar.mjs';
import IconChevronLeft from '@tabler/icons-react/dist/esm/icons/IconChevronLeft.mjs';
import IconChevronRight from '@tabler/icons-react/dist/esm/icons/IconChevronRight.mjs';
import IconPlus from '@tabler/icons-react/dist/esm/icons/IconPlus.mjs';
import IconSearch from '@tabler/icons-react/dist/esm/icons/IconSearch.mjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addCalendarDays, monthGrid, weekOf, type Booking, type VehicleSchedule } from '../../../../../shared/schemas/car-schedule';
import { errorMessage } from '../../../app/api-client';
import { getSessionUser } from '../../../app/session';
import { useSearchQuery } from '../../../app/use-search-query';
import { intlLocale } from '../../../i18n/i18n';
import { MessageState } from '../../../ui/message-state';
import { PageLoader } from '../../../ui/page-loader';
import { useSettings } from '../../auth/api/settings';
import { useMonthSchedule, useWeekSchedule } from '../api/car-schedule-api';
import { bookingValues, newBookingValues, today as localToday, wallNow } from '../booking-form';
import { BookingModal, type BookingDraft } from '../components/booking-modal';
import { BOOKING_LIST_LAYER } from '../components/day-bookings';
import { DeleteBookingModal } from '../components/delete-booking-modal';
import { MonthCalendar } from '../components/month-calendar';
import { WeekGrid, dayTitle, type Sort, type SortColumn } from '../components/week-grid';
import '../car-schedule.css';
import { LockedOrFailed } from '../../unit-lock/components/tracker-locked';
import { DateField } from '../../../ui/date-fields';

/** Vehicles whose name, registration number or IMEI contain the search, sorted by a column. */
export function shownVehicles(vehicles: readonly VehicleSchedule[], search: string, sort: Sort, locale: string): VehicleSchedule[] {
  const needle = search.trim().toLocaleLowerCase(locale);
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  return vehicles
    .filter((v) => !needle || [v.Name, v.RegistrationNumber, v.Imei].some((x) => x.toLocaleLowerCase(locale).includes(needle)))
    .sort((a, b) => (sort.ascending ? 1 : -1) * (collator.compare(a[sort.column], b[sort.column]) || collator.compare(a.Name, b.Name)));
}

export function CarSchedulePage() {
  const { t, i18n } = useTranslation();
  const locale = intlLocale(i18n.language === 'sv' || i18n.language === 'no' ? i18n.language : 'en');
  const settings = useSettings();
  const user = getSessionUser();
  const self = { id: user?.ID ?? '', name: `${user?.FirstName ?? ''} ${user?.LastName ?? ''}`.trim() };
  const isAdmin = settings.data?.is_admin ?? false;
  const today = localToday();
  const [weekDay, setWeekDay] = useState(today);
  const [view, setView] = useState<'week' | 'month'>('week');
  const [month, setMonth] = useState(today.slice(0, 7));
  const [sort, setSort] = useState<Sort>({ column: 'Name', ascending: true });
  const { query, deferred, changeQuery } = useSearchQuery();
  const [draft, setDraft] = useState<BookingDraft | null>(null);
  const [deleting, setDeleting] = useState<Booking | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const week = useWeekSchedule(weekDay);
  const mine = useMonthSchedule(month, view === 'month');
  const days = useMemo(() => weekOf(weekDay), [weekDay]);
  const vehicles = useMemo(() => week.data?.BookingSchedules ?? [], [week.data]);
  const shown = useMemo(() => shownVehicles(vehicles, deferred, sort, locale), [vehicles, deferred, sort, locale]);

  const done = (key: string) => {
    setDraft(null);
    setDeleting(null);
    setNotice({ ok: true, text: t(key) });
  };
  const failed = (error: unknown) => {
    setDeleting(null);
    setNotice({ ok: false, text: errorMessage(error) });
  };
  const openNew = (imei: string | null, day?: string) => {
    const only = vehicles.length === 1 ? (vehicles[0]?.Imei ?? '') : '';
    setNotice(null);
    setDraft({ booking: null, values: newBookingValues(wallNow(), self.id, imei ?? only, day), chooseVehicle: imei === null && vehicles.length > 1 });
  };
  const openBooking = (b: Booking) => {
    setNotice(null);
    setDraft({ booking: b, values: bookingValues(b), chooseVehicle: false });
  };
  const sortBy = (column: SortColumn) => setSort((s) => ({ column, ascending: s.column === column ? !s.ascending : true }));

  if (week.data === undefined) {
    if (!week.isError) return <PageLoader />;
    return (
      <LockedOrFailed error={week.error}>
<Alert color="red" role="alert" icon={<IconAlertTriangle size={20} aria-hidden />} title={t('CsLoadFailed')} maw={640}>
        <Stack gap="sm" align="flex-start">
          <span>{errorMessage(week.error)}</span>
          <Button variant="default" size="xs" onClick={() => void week.refetch()} loading={week.isFetching}>
            {t('CsTryAgain')}
          </Button>
        </Stack>
      </Alert>
</LockedOrFailed>
    );
  }

  const monthDays = monthGrid(month);
  const monthBookings = (mine.data?.BookingSchedules ?? []).flatMap((v) => v.Schedule);
  const shiftMonth = (by: number) => {
    const [y = 2000, m = 1] = month.split('-').map(Number);
    setMonth(new Date(Date.UTC(y, m - 1 + by, 1)).toISOString().slice(0, 7));
  };

  return (
    <Stack gap="md">
      <div aria-live="polite">
        {notice ? (
          <Alert color={notice.ok ? 'green' : 'red'} role={notice.ok ? 'status' : 'alert'} withCloseButton closeButtonLabel={t('CsClose')} onClose={() => setNotice(null)} maw={760}>
            {notice.text}
          </Alert>
        ) : null}
      </div>
      {view === 'week' ? (
        <>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <TextInput
              label={t('CsSearchLabel')}
              placeholder={t('CsSearchPlaceholder')}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={query}
              onChange={(e) => changeQuery(e.currentTarget.value)}
              type="search"
              w={{ base: '100%', xs: 260 }}
            />
            <Group gap={4} align="flex-end" wrap="nowrap">
              <Button variant="default" px="xs" onClick={() => setWeekDay(addCalendarDays(weekDay, -7))} aria-label={t('CsPreviousWeek')}>
                <IconChevronLeft size={18} aria-hidden />
              </Button>
              <Button variant="default" onClick={() => setWeekDay(today)}>
                {t('CsThisWeek')}
              </Button>
              <Button variant="default" px="xs" onClick={() => setWeekDay(addCalendarDays(weekDay, 7))} aria-label={t('CsNextWeek')}>
                <IconChevronRight size={18} aria-hidden />
              </Button>
            </Group>
            <DateField label={t('CsGoToDate')} value={weekDay} onChange={(day) => day && setWeekDay(day)} w={170} />
            <Group gap="xs" ml={{ base: 0, sm: 'auto' }}>
              <Button variant="light" leftSection={<IconCalendar size={16} aria-hidden />} onClick={() => setView('month')}>
                {t('CsMyBooking')}
              </Button>
              <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => openNew(null)} disabled={!vehicles.length}>
                {t('CsNewBooking')}
              </Button>
            </Group>
          </Group>
          <Text size="sm" c="dimmed" role="status">
            {t('CsWeekRange', { from: dayTitle(days[0] ?? today, locale, 'long'), to: dayTitle(days[6] ?? today, locale, 'long') })} · {t('CsVehicleCount', { count: shown.length })}
          </Text>
          {vehicles.length === 0 ? (
            <MessageState icon={<IconCar size={30} stroke={1.6} />} title={t('CsNoVehicles')} />
          ) : shown.length === 0 ? (
            <MessageState icon={<IconSearch size={30} stroke={1.6} />} title={t('CsNoMatches')} />
          ) : (
            <WeekGrid vehicles={shown} days={days} today={today} locale={locale} sort={sort} onSort={sortBy} onOpen={openBooking} onNew={(imei, day) => openNew(imei, day)} />
          )}
        </>
      ) : (
        <>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Button variant="default" leftSection={<IconChevronLeft size={16} aria-hidden />} onClick={() => setView('week')}>
              {t('CsBackToWeek')}
            </Button>
            <Group gap={4} align="flex-end" wrap="nowrap">
              <Button variant="default" px="xs" onClick={() => shiftMonth(-1)} aria-label={t('CsPreviousMonth')}>
                <IconChevronLeft size={18} aria-hidden />
              </Button>
              <TextInput type="month" label={t('CsMonth')} value={month} onChange={(e) => e.currentTarget.value && setMonth(e.currentTarget.value)} w={170} />
              <Button variant="default" px="xs" onClick={() => shiftMonth(1)} aria-label={t('CsNextMonth')}>
                <IconChevronRight size={18} aria-hidden />
              </Button>
            </Group>
            <Button ml={{ base: 0, sm: 'auto' }} leftSection={<IconPlus size={16} aria-hidden />} onClick={() => openNew(null)} disabled={!vehicles.length}>
              {t('CsNewBooking')}
            </Button>
          </Group>
          <Text component="h2" fw={600} size="lg">
            {t('CsMonthTitle')}
          </Text>
          {mine.isError ? (
            <LockedOrFailed error={mine.error}>
<Alert color="red" role="alert">
              {errorMessage(mine.error)}
            </Alert>
</LockedOrFailed>
          ) : (
            <MonthCalendar month={month} days={monthDays} bookings={monthBookings} today={today} locale={locale} onOpen={openBooking} />
          )}
        </>
      )}
      <BookingModal
        draft={draft}
        vehicles={vehicles}
        isAdmin={isAdmin}
        self={self}
        onClose={() => setDraft(null)}
        onSaved={done}
        onDelete={(b) => {
          setDraft(null);
          setDeleting(b);
        }}
      />
      <DeleteBookingModal booking={deleting} onClose={() => setDeleting(null)} onDeleted={done} onFailed={failed} />
      <div id={BOOKING_LIST_LAYER} />
    </Stack>
  );
}
