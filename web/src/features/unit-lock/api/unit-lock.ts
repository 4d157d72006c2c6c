/**
 * The access lock's calls (docs/api.md Units: access lock): the lock and its log, lock, unlock.
 * Answers are checked against shared/schemas/unit-lock.ts. A change refreshes what the lock
 * hides or shows again: the map's units, the units list, trips, positions and events.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { unitLockSchema, type UnitLock } from '../../../../../shared/schemas/unit-lock';
import { apiRequest } from '../../../app/api-client';

const withImei = (path: string, imei: string) => path.replace('{imei}', encodeURIComponent(imei));
export const unitLockKey = (imei: string) => ['unit-lock', imei] as const;

export function useUnitLock(imei: string) {
  return useQuery({
    queryKey: unitLockKey(imei),
    queryFn: ({ signal }) => apiRequest('GET', withImei(routes.getUnitLockLog.path, imei), { schema: unitLockSchema, signal }),
  });
}

/** Locks (`lock: true`) or unlocks the unit; the answer is the lock and its log afterwards. */
export function useChangeUnitLock(imei: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (lock: boolean): Promise<UnitLock> =>
      apiRequest('POST', withImei(lock ? routes.lockUnit.path : routes.unlockUnit.path, imei), { schema: unitLockSchema }),
    onSuccess: (data) => {
      queryClient.setQueryData(unitLockKey(imei), data);
      // The units list and a unit's positions (['units', ...]), the map's units, trips and events.
      for (const queryKey of [['units'], ['user', 'realtime-units'], ['trips'], ['events']]) void queryClient.invalidateQueries({ queryKey });
    },
    // Someone else locked or unlocked meanwhile: show the lock as it is now.
    onError: () => queryClient.invalidateQueries({ queryKey: unitLockKey(imei) }),
  });
}
