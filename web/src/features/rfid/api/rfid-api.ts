/**
 * The RFID cards page's calls (docs/api.md RFID cards): the list with owners, readers and unknown
 * reads, adding a card that a reader read, editing, pairing, unpairing and deleting. Every answer
 * is checked against shared/schemas/rfid.ts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import { rfidCardCreatedSchema, rfidCardListSchema, rfidCardSchema, type RfidCardAddRequest, type RfidCardUpdateRequest, type RfidPairRequest } from '../../../../../shared/schemas/rfid';
import { apiRequest } from '../../../app/api-client';
import { withParams } from '../../triplog/api/trip-paths';

export const RFID_KEY = ['rfid-cards'] as const;

/** While a pairing waits for its tracker, the list is asked again this often. */
const PENDING_REFRESH_MS = 5_000;

export function useRfidCards() {
  return useQuery({
    queryKey: RFID_KEY,
    queryFn: ({ signal }) => apiRequest('GET', routes.getRfidCards.path, { schema: rfidCardListSchema, signal }),
    refetchInterval: (query) => (query.state.data?.cards.some((c) => c.reader?.status === 'pending') ? PENDING_REFRESH_MS : false),
  });
}

function useCardMutation<V>(run: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => queryClient.invalidateQueries({ queryKey: RFID_KEY }) });
}

/** Adds a card the account does not have yet (a reader read it): the server forgets its unknown reads. */
export const useAddRfidCard = () =>
  useCardMutation((body: RfidCardAddRequest) => apiRequest(routes.addRfidCard.method, routes.addRfidCard.path, { body, schema: rfidCardCreatedSchema }));

export const useUpdateRfidCard = () =>
  useCardMutation(({ cardId, body }: { cardId: string; body: RfidCardUpdateRequest }) =>
    apiRequest('PUT', withParams(routes.updateRfidCard.path, { cardId }), { body, schema: rfidCardSchema }),
  );

export const usePairRfidCard = () =>
  useCardMutation(({ cardId, body }: { cardId: string; body: RfidPairRequest }) =>
    apiRequest('POST', withParams(routes.pairRfidCard.path, { cardId }), { body, schema: rfidCardSchema }),
  );

export const useUnpairRfidCard = () =>
  useCardMutation((cardId: string) => apiRequest('POST', withParams(routes.unpairRfidCard.path, { cardId }), { schema: rfidCardSchema }));

export const useDeleteRfidCard = () => useCardMutation((cardId: string) => apiRequest('DELETE', withParams(routes.deleteRfidCard.path, { cardId })));
