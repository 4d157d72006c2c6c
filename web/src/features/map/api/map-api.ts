/** The map page's calls: the base map, the realtime units and the address of a position. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { mapConfigSchema, realtimeUnitsSchema, reverseGeocodeSchema } from '../../../../../shared/schemas/tracking';
import { apiRequest } from '../../../app/api-client';

export const realtimeUnitsQueryKey = ['user', 'realtime-units'] as const;

export function useMapConfig() {
  return useQuery({
    queryKey: ['user', 'map-config'],
    queryFn: ({ signal }) => apiRequest(routes.getMapConfig.method, routes.getMapConfig.path, { schema: mapConfigSchema, signal }),
    staleTime: Infinity,
  });
}

/** Every unit the caller may see with its latest state; live messages keep it current in between. */
export function useRealtimeUnits() {
  return useQuery({
    queryKey: realtimeUnitsQueryKey,
    queryFn: ({ signal }) => apiRequest(routes.getRealtimeUnits.method, routes.getRealtimeUnits.path, { schema: realtimeUnitsSchema, signal }),
  });
}

/**
 * Three decimals are about 100 m: a unit creeping along does not ask again for every position, and
 * units parked close together share one answer.
 */
export function roundedCoordinate(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function useReverseGeocode(position: { lat: number; lon: number } | null) {
  const lat = position ? roundedCoordinate(position.lat) : null;
  const lon = position ? roundedCoordinate(position.lon) : null;
  return useQuery({
    queryKey: ['user', 'geocode', lat, lon],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ lat: String(lat), lon: String(lon) });
      return apiRequest(routes.reverseGeocode.method, `${routes.reverseGeocode.path}?${query.toString()}`, { schema: reverseGeocodeSchema, signal });
    },
    enabled: lat !== null && lon !== null,
    staleTime: Infinity,
    gcTime: 30 * 60_000,
    // The previous address stays while the next one is on its way, instead of flickering to "loading".
    placeholderData: keepPreviousData,
  });
}
