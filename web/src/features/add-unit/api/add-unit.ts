/**
 * Adding a unit (docs/api.md Administration: add a unit): the account's ordinary users it can be
 * granted to, and the add itself. Answers are checked against shared/schemas/add-unit.ts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { addedUnitSchema, grantableUsersSchema, type AddUnitRequest } from '../../../../../shared/schemas/add-unit';
import { apiRequest } from '../../../app/api-client';

export function useGrantableUsers() {
  return useQuery({
    queryKey: ['administration', 'grantable-users'],
    queryFn: ({ signal }) => apiRequest('GET', routes.getGrantableUsers.path, { schema: grantableUsersSchema, signal }).then((d) => d.users),
  });
}

export function useAddUnit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddUnitRequest) => apiRequest('POST', routes.addUnit.path, { body, schema: addedUnitSchema }),
    // The new unit shows in the units list and on the map.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['units'] });
      void queryClient.invalidateQueries({ queryKey: ['user', 'realtime-units'] });
    },
  });
}
