import { useQuery } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { settingsSchema, type Settings } from '../../../../../shared/schemas/system';
import { apiRequest } from '../../../app/api-client';

export const settingsQueryKey = ['user', 'settings'] as const;

export function fetchSettings(signal?: AbortSignal): Promise<Settings> {
  return apiRequest(routes.getSettings.method, routes.getSettings.path, signal ? { schema: settingsSchema, signal } : { schema: settingsSchema });
}

/** The caller's feature flags and roles; they drive the sidebar and the route guards. */
export function useSettings() {
  return useQuery({ queryKey: settingsQueryKey, queryFn: ({ signal }) => fetchSettings(signal) });
}
