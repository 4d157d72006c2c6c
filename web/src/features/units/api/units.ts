import { useQuery } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { unitListSchema } from '../../../../../shared/schemas/units';
import { apiRequest } from '../../../app/api-client';

/** Every unit the caller may see (GET /api/v1/user/units), refreshed while open so "last seen" stays true. */
export function useUnits() {
  return useQuery({
    queryKey: ['units'],
    queryFn: ({ signal }) => apiRequest(routes.getUnits.method, routes.getUnits.path, { schema: unitListSchema, signal }),
    refetchInterval: 60_000,
  });
}
