/**
 * The safe return home page's calls (docs/api.md Safe return home): the list, the toggle, the home
 * and the schedule, and the unit's latest position the home's map starts at. Every answer is
 * checked against shared/schemas/safe-home.ts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import {
  safeHomeItemSchema,
  safeHomeListSchema,
  type SafeHomeGeofenceRequest,
  type SafeHomeItem,
  type SafeHomeScheduleRequest,
} from '../../../../../shared/schemas/safe-home';
import { latestPositionSchema } from '../../../../../shared/schemas/tracking';
import { apiRequest } from '../../../app/api-client';
import { withParams } from '../../triplog/api/trip-paths';

export const SAFE_HOME_KEY = ['safe-home'] as const;

export function useSafeHomes() {
  return useQuery({
    queryKey: SAFE_HOME_KEY,
    queryFn: ({ signal }) => apiRequest('GET', routes.getSafeHome.path, { schema: safeHomeListSchema, signal }),
  });
}

/** The unit's latest position, or null when it has none; asked once per opening of the home's map. */
export function useLatestPosition(imei: string | null) {
  return useQuery({
    queryKey: ['latest-position', imei],
    queryFn: ({ signal }) => apiRequest('GET', withParams(routes.getLatestPosition.path, { imei: imei as string }), { schema: latestPositionSchema, signal }),
    enabled: imei !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** Puts a saved item into the cached list at once (the toggle shows its new state without a reload). */
function useItemMutation<V>(run: (vars: V) => Promise<SafeHomeItem>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (item) => {
      queryClient.setQueryData<SafeHomeItem[]>(SAFE_HOME_KEY, (list) => list?.map((row) => (row.imei === item.imei ? item : row)));
      void queryClient.invalidateQueries({ queryKey: SAFE_HOME_KEY });
    },
  });
}

export const useToggleSafeHome = () =>
  useItemMutation(({ imei, on }: { imei: string; on: boolean }) =>
    apiRequest('PUT', withParams(routes.putSafeHomeStatus.path, { imei }), { body: { status: on ? 1 : 0 }, schema: safeHomeItemSchema }),
  );

export const useSaveHome = () =>
  useItemMutation(({ imei, body }: { imei: string; body: SafeHomeGeofenceRequest }) =>
    apiRequest('PUT', withParams(routes.putSafeHomeGeofence.path, { imei }), { body, schema: safeHomeItemSchema }),
  );

export const useSaveSchedule = () =>
  useItemMutation(({ imei, body }: { imei: string; body: SafeHomeScheduleRequest }) =>
    apiRequest('PUT', withParams(routes.putSafeHomeSchedule.path, { imei }), { body, schema: safeHomeItemSchema }),
  );
