/**
 * Autoplan from the trip log (docs/api.md Reports: Autoplan): reporting a unit's previous month,
 * and the account's automatic reporting (admins). Schemas from shared/schemas/autoplan.ts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { autoplanReportSchema, autoplanSettingsSchema, type AutoplanRequest, type AutoplanSettings } from '../../../../../shared/schemas/autoplan';
import { apiRequest } from '../../../app/api-client';

export function useReportAutoplan() {
  return useMutation({
    mutationFn: (body: AutoplanRequest) => apiRequest('POST', routes.postAutoplanReport.path, { body, schema: autoplanReportSchema }),
  });
}

const settingsKey = ['autoplan-settings'] as const;

export function useAutoplanSettings(enabled: boolean) {
  return useQuery({
    queryKey: settingsKey,
    queryFn: ({ signal }) => apiRequest('GET', routes.getAutoplanSettings.path, { schema: autoplanSettingsSchema, signal }),
    enabled,
  });
}

export function useSaveAutoplanSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoplanSettings) => apiRequest('PUT', routes.putAutoplanSettings.path, { body, schema: autoplanSettingsSchema }),
    onSuccess: (saved) => queryClient.setQueryData(settingsKey, saved),
  });
}
