/**
 * The geofences' calls (docs/api.md Geofences) and the address search the geofence and place
 * editors share. Schemas come from shared/schemas/geofences.ts; every answer is checked against them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import {
  geocodeSearchSchema,
  geofenceCreatedSchema,
  geofenceListSchema,
  geofenceSchema,
  type GeocodeResult,
  type Geofence,
  type GeofenceRequest,
} from '../../../../../shared/schemas/geofences';
import { apiRequest } from '../../../app/api-client';
import { withParams } from '../../triplog/api/trip-paths';

export const geofencePaths = {
  list: routes.getGeofences.path,
  one: routes.getGeofence.path,
  search: routes.searchAddresses.path,
} as const;

const GEOFENCES_KEY = ['geofences'] as const;

export function useGeofences() {
  return useQuery({
    queryKey: GEOFENCES_KEY,
    queryFn: ({ signal }) => apiRequest('GET', geofencePaths.list, { schema: geofenceListSchema, signal }).then((d) => d.geofences),
  });
}

export function useGeofence(id: string | undefined) {
  return useQuery({
    queryKey: [...GEOFENCES_KEY, id ?? null],
    queryFn: ({ signal }) => apiRequest('GET', withParams(geofencePaths.one, { id: id as string }), { schema: geofenceSchema, signal }),
    enabled: id !== undefined,
    retry: (count, error) => count < 2 && !(error instanceof Error && 'status' in error && [404, 422].includes((error as { status: number }).status)),
  });
}

/** Creates (no id) or replaces a geofence; answers its id. */
export function useSaveGeofence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id?: string; body: GeofenceRequest }): Promise<string> => {
      if (id === undefined) return (await apiRequest('POST', geofencePaths.list, { body, schema: geofenceCreatedSchema })).id;
      return (await apiRequest('PUT', withParams(geofencePaths.one, { id }), { body, schema: geofenceSchema })).id;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: GEOFENCES_KEY }),
  });
}

export function useDeleteGeofence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', withParams(geofencePaths.one, { id })),
    onSuccess: (_data, id) => {
      queryClient.setQueryData<Geofence[]>(GEOFENCES_KEY, (list) => list?.filter((g) => g.id !== id));
      queryClient.removeQueries({ queryKey: [...GEOFENCES_KEY, id] });
      return queryClient.invalidateQueries({ queryKey: GEOFENCES_KEY });
    },
  });
}

/** Addresses matching `q`, best first; near the given point when known. */
export function searchAddresses(q: string, near: { lat: number; lon: number } | null, signal?: AbortSignal): Promise<GeocodeResult[]> {
  const params = new URLSearchParams({ q });
  if (near) {
    params.set('lat', near.lat.toFixed(5));
    params.set('lon', near.lon.toFixed(5));
  }
  return apiRequest('GET', `${geofencePaths.search}?${params.toString()}`, signal ? { schema: geocodeSearchSchema, signal } : { schema: geocodeSearchSchema });
}

export function useAddressSearch(q: string | null, near: { lat: number; lon: number } | null) {
  return useQuery({
    queryKey: ['geocode-search', q],
    queryFn: ({ signal }) => searchAddresses(q as string, near, signal),
    enabled: q !== null && q.trim() !== '',
    staleTime: 5 * 60_000,
    retry: false,
  });
}
