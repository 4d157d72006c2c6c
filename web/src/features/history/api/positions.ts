/** A unit's positions over a period (docs/api.md: GET /api/v1/user/units/{imei}/positions?from&to). */
import { useQuery } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { positionsSchema, type Position } from '../../../../../shared/schemas/tracking';
import { trackingMessageKeys } from '../../../../../shared/schemas/tracking-messages';
import { apiRequest } from '../../../app/api-client';
import type { PositionsQuery } from '../playback';

export interface PositionsAnswer {
  positions: Position[];
  /** The period holds more positions than one answer carries; only the earliest came. */
  truncated: boolean;
}

export async function fetchPositions(imei: string, query: PositionsQuery, signal?: AbortSignal): Promise<PositionsAnswer> {
  const path = `${routes.getPositions.path.replace('{imei}', encodeURIComponent(imei))}?${new URLSearchParams({ from: query.from, to: query.to })}`;
  let truncated = false;
  const positions = await apiRequest(routes.getPositions.method, path, {
    schema: positionsSchema,
    onMessage: (key) => {
      truncated = key === trackingMessageKeys.PositionsTruncated;
    },
    ...(signal ? { signal } : {}),
  });
  return { positions, truncated };
}

export function usePositions(imei: string | null, query: PositionsQuery | null) {
  return useQuery({
    queryKey: ['units', imei, 'positions', query?.from, query?.to],
    queryFn: ({ signal }) => fetchPositions(imei as string, query as PositionsQuery, signal),
    enabled: imei !== null && query !== null,
    // A period that has passed does not change; "last hour" asks again with a new period on each Load.
    staleTime: Infinity,
  });
}
