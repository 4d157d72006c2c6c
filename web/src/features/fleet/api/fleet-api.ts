/**
 * The fleet overview's call (GET /api/v1/user/fleet-overview): refetched every minute while the
 * page is open, and when the window regains focus.
 */
import { useQuery } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { fleetOverviewSchema, type FleetOverview } from '../../../../../shared/schemas/fleet-overview';
import { apiRequest } from '../../../app/api-client';

export const FLEET_REFRESH_MS = 60_000;
export const fleetOverviewKey = ['fleet-overview'] as const;

export function fetchFleetOverview(signal?: AbortSignal): Promise<FleetOverview> {
  return apiRequest(routes.getFleetOverview.method, routes.getFleetOverview.path, signal ? { schema: fleetOverviewSchema, signal } : { schema: fleetOverviewSchema });
}

export function useFleetOverview() {
  return useQuery({ queryKey: fleetOverviewKey, queryFn: ({ signal }) => fetchFleetOverview(signal), refetchInterval: FLEET_REFRESH_MS });
}
