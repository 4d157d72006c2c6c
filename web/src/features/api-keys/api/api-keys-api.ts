/**
 * The API keys page's calls (docs/api.md API keys): the account's keys, creating (the key is in
 * this one answer), revoking, and a key's call log in pages. Every answer is checked against
 * shared/schemas/api-keys.ts.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiKeyCallListSchema, apiKeyCreatedSchema, apiKeyListSchema, type ApiKeyScope } from '../../../../../shared/schemas/api-keys';
import { apiRequest } from '../../../app/api-client';

const base = '/api/v1/administration/api-keys';

export const apiKeyQueries = {
  keys: ['api-keys'] as const,
  calls: (id: string) => ['api-keys', 'calls', id] as const,
};

export function useApiKeys() {
  // "Last used" moves while an integration calls: read again every minute the page is open.
  return useQuery({ queryKey: apiKeyQueries.keys, queryFn: ({ signal }) => apiRequest('GET', base, { schema: apiKeyListSchema, signal }), refetchInterval: 60_000 });
}

export function createApiKey(body: { name: string; scopes: ApiKeyScope[] }) {
  return apiRequest('POST', base, { body, schema: apiKeyCreatedSchema });
}

export function revokeApiKey(id: string) {
  return apiRequest('DELETE', `${base}/${encodeURIComponent(id)}`, { schema: z.null() });
}

export function useApiKeyCalls(id: string | null) {
  return useInfiniteQuery({
    queryKey: apiKeyQueries.calls(id ?? ''),
    enabled: id !== null,
    staleTime: 0,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      apiRequest('GET', `${base}/${encodeURIComponent(id ?? '')}/calls?limit=25${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`, {
        schema: apiKeyCallListSchema,
        signal,
      }),
    getNextPageParam: (last) => last.nextCursor,
  });
}
