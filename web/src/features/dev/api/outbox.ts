import { useQuery } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { outboxMessageSchema, type OutboxKind } from '../../../../../shared/schemas/system';
import { apiRequest } from '../../../app/api-client';

const listSchema = outboxMessageSchema.array();

/** Messages the embedded runtime sent, newest first; refreshed every few seconds. */
export function useOutbox(to: string, kind: OutboxKind | null) {
  const query = new URLSearchParams();
  if (to.trim()) query.set('to', to.trim());
  if (kind) query.set('kind', kind);
  const qs = query.toString();
  return useQuery({
    queryKey: ['outbox', to.trim(), kind],
    queryFn: ({ signal }) =>
      apiRequest(routes.getOutbox.method, `${routes.getOutbox.path}${qs ? `?${qs}` : ''}`, { schema: listSchema, signal }),
    refetchInterval: 5000,
    retry: false,
  });
}
