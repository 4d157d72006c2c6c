/**
 * The car schedule page's calls (docs/api.md Car booking): the week and the month (My booking),
 * the drivers of a vehicle, and saving and deleting bookings. Every answer is checked against
 * shared/schemas/car-schedule.ts; a save or delete reloads the schedules.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { bookingDriversSchema, bookingSchema, carScheduleSchema, type BookingSaveRequest } from '../../../../../shared/schemas/car-schedule';
import { apiRequest } from '../../../app/api-client';
import { withParams } from '../../triplog/api/trip-paths';

export const CAR_SCHEDULE_KEY = ['car-schedule'] as const;

export function useWeekSchedule(weekDay: string) {
  return useQuery({
    queryKey: [...CAR_SCHEDULE_KEY, 'week', weekDay],
    queryFn: ({ signal }) => apiRequest('GET', `${routes.getCarScheduleWeek.path}?${new URLSearchParams({ Imeis: '', week_day: weekDay })}`, { schema: carScheduleSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useMonthSchedule(month: string, enabled: boolean) {
  return useQuery({
    queryKey: [...CAR_SCHEDULE_KEY, 'month', month],
    queryFn: ({ signal }) => apiRequest('GET', `${routes.getCarScheduleMonth.path}?${new URLSearchParams({ Imeis: '', month })}`, { schema: carScheduleSchema, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useBookingDrivers(imei: string | null) {
  return useQuery({
    queryKey: [...CAR_SCHEDULE_KEY, 'drivers', imei],
    queryFn: ({ signal }) => apiRequest('POST', routes.getCarScheduleDrivers.path, { body: { imei }, schema: bookingDriversSchema, signal }),
    enabled: imei !== null && imei !== '',
  });
}

function useScheduleMutation<V>(run: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => queryClient.invalidateQueries({ queryKey: CAR_SCHEDULE_KEY }) });
}

/** Creates a booking (id null) or changes one. */
export const useSaveBooking = () =>
  useScheduleMutation(({ id, body }: { id: string | null; body: BookingSaveRequest }) =>
    id === null
      ? apiRequest('POST', routes.createBooking.path, { body, schema: bookingSchema })
      : apiRequest('PUT', withParams(routes.updateBooking.path, { id }), { body, schema: bookingSchema }),
  );

export const useDeleteBooking = () => useScheduleMutation((id: string) => apiRequest('DELETE', withParams(routes.deleteBooking.path, { id })));
