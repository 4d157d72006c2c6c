/**
 * The unit editor's calls (docs/api.md Unit editor): one unit's editable fields, and a partial
 * save that answers the unit as stored. Answers are checked against shared/schemas/unit-editor.ts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { operatingHoursEntryListSchema, unitEditorSchema, type UnitEditor, type UnitUpdateRequest } from '../../../../../shared/schemas/unit-editor';
import { apiRequest } from '../../../app/api-client';
import { withParams } from '../../triplog/api/trip-paths';

export const unitEditorQueryKey = (imei: string) => ['unit-editor', imei] as const;
const pathOf = (imei: string) => withParams(routes.getUnitDetails.path, { imei });

export function useUnitEditor(imei: string | null) {
  return useQuery({
    queryKey: unitEditorQueryKey(imei ?? ''),
    queryFn: ({ signal }) => apiRequest('GET', pathOf(imei as string), { schema: unitEditorSchema, signal }),
    enabled: imei !== null,
    retry: (count, error) => count < 2 && !(error instanceof Error && 'status' in error && [403, 404, 422].includes((error as { status: number }).status)),
  });
}

export function useSaveUnit(imei: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UnitUpdateRequest) => apiRequest('PUT', pathOf(imei), { body, schema: unitEditorSchema }),
    onSuccess: (unit: UnitEditor) => {
      queryClient.setQueryData(unitEditorQueryKey(imei), unit);
      // A reading of the odometer or the hours is a new entry (and corrects the trips after it).
      void queryClient.invalidateQueries({ queryKey: operatingHoursKey(imei) });
      void queryClient.invalidateQueries({ queryKey: ['odometer-entries', imei] });
      void queryClient.invalidateQueries({ queryKey: ['trips', imei] });
      // The units list and the map show the name, colour and symbol.
      return queryClient.invalidateQueries({ queryKey: ['units'] });
    },
  });
}

// Operating-hours readings (the odometer's are the trip log's, web/src/features/triplog/api/trip-api.ts)

export const operatingHoursKey = (imei: string) => ['operating-hours-entries', imei] as const;

export function useOperatingHoursEntries(imei: string) {
  return useQuery({
    queryKey: operatingHoursKey(imei),
    queryFn: ({ signal }) => apiRequest('GET', withParams(routes.getOperatingHoursEntries.path, { imei }), { schema: operatingHoursEntryListSchema, signal }),
  });
}

export function useDeleteOperatingHoursEntry(imei: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entryId: string) => apiRequest('DELETE', withParams(routes.deleteOperatingHoursEntry.path, { imei, entryId })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: operatingHoursKey(imei) });
      return queryClient.invalidateQueries({ queryKey: unitEditorQueryKey(imei) });
    },
  });
}
