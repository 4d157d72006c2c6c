/**
 * The places' calls (docs/api.md Trips, geofences, places): the list, one place, save, delete and
 * re-applying a rule to stored trips. Schemas come from shared/schemas/places.ts; every answer is
 * checked against them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { placeApplySchema, placeCreatedSchema, placeListSchema, placeSchema, type Place, type PlaceApplyRequest, type PlaceRequest } from '../../../../../shared/schemas/places';
import { apiRequest } from '../../../app/api-client';
import { withParams } from '../../triplog/api/trip-paths';

export const placePaths = {
  list: routes.getPlaces.path,
  one: routes.getPlace.path,
  apply: routes.applyPlace.path,
} as const;

const PLACES_KEY = ['places'] as const;
const noRetryOn = (statuses: number[]) => (count: number, error: unknown) =>
  count < 2 && !(error instanceof Error && 'status' in error && statuses.includes((error as { status: number }).status));

export function usePlaces() {
  return useQuery({
    queryKey: PLACES_KEY,
    queryFn: ({ signal }) => apiRequest('GET', placePaths.list, { schema: placeListSchema, signal }).then((d) => d.places),
  });
}

export function usePlace(id: string | undefined) {
  return useQuery({
    queryKey: [...PLACES_KEY, id ?? null],
    queryFn: ({ signal }) => apiRequest('GET', withParams(placePaths.one, { id: id as string }), { schema: placeSchema, signal }),
    enabled: id !== undefined,
    retry: noRetryOn([403, 404, 422]),
  });
}

/** Creates (no id) or replaces a place; answers its id. */
export function useSavePlace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id?: string | undefined; body: PlaceRequest }): Promise<string> => {
      if (id === undefined) return (await apiRequest('POST', placePaths.list, { body, schema: placeCreatedSchema })).id;
      await apiRequest('PUT', withParams(placePaths.one, { id }), { body });
      return id;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PLACES_KEY }),
  });
}

export function useDeletePlace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', withParams(placePaths.one, { id })),
    onSuccess: (_data, id) => {
      queryClient.setQueryData<Place[]>(PLACES_KEY, (list) => list?.filter((p) => p.id !== id));
      return queryClient.invalidateQueries({ queryKey: PLACES_KEY });
    },
  });
}

/** Gives the place's rule type to the matching trips of a period; answers how many changed. */
export function useApplyPlace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: PlaceApplyRequest }) => apiRequest('POST', withParams(placePaths.apply, { id }), { body, schema: placeApplySchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['trips'] }),
  });
}
