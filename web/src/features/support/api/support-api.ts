/**
 * The support page's calls (docs/api.md Support): account search, an account's units with their
 * lock state, unlocking, announcement texts and the support log. Every answer is checked against
 * shared/schemas/support.ts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import {
  supportAccountListSchema,
  supportAccountUnitsSchema,
  supportAnnouncementListSchema,
  supportLogSchema,
  type AnnouncementSave,
  type SupportSearchField,
} from '../../../../../shared/schemas/support';
import { unitLockSchema } from '../../../../../shared/schemas/unit-lock';
import type { Language } from '../../../../../shared/schemas/common';
import { apiRequest } from '../../../app/api-client';
import { withParams } from '../../triplog/api/trip-paths';

const LOG_KEY = ['support-log'] as const;
const ANNOUNCEMENTS_KEY = ['support-announcements'] as const;

export function useSupportSearch(search: { by: SupportSearchField; q: string } | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['support-search', search],
    enabled: search !== null,
    queryFn: async ({ signal }) => {
      const params = new URLSearchParams({ by: search?.by ?? 'name', q: search?.q ?? '' });
      const out = await apiRequest('GET', `${routes.searchSupportAccounts.path}?${params.toString()}`, { schema: supportAccountListSchema, signal });
      void queryClient.invalidateQueries({ queryKey: LOG_KEY });
      return out;
    },
    staleTime: Infinity,
  });
}

export function useSupportAccountUnits(accountId: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['support-account-units', accountId],
    enabled: accountId !== null,
    queryFn: async ({ signal }) => {
      const out = await apiRequest('GET', withParams(routes.getSupportAccountUnits.path, { accountId: accountId ?? '' }), { schema: supportAccountUnitsSchema, signal });
      void queryClient.invalidateQueries({ queryKey: LOG_KEY });
      return out;
    },
  });
}

export function useSupportUnlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (imei: string) => apiRequest('POST', withParams(routes.supportUnlockUnit.path, { imei }), { schema: unitLockSchema }),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['support-account-units'] }), queryClient.invalidateQueries({ queryKey: LOG_KEY })]),
  });
}

export function useSupportAnnouncements() {
  return useQuery({
    queryKey: ANNOUNCEMENTS_KEY,
    queryFn: ({ signal }) => apiRequest('GET', routes.getSupportAnnouncements.path, { schema: supportAnnouncementListSchema, signal }),
  });
}

function useAnnouncementChange<V>(run: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ANNOUNCEMENTS_KEY }),
        queryClient.invalidateQueries({ queryKey: LOG_KEY }),
        // The header's own bar.
        queryClient.invalidateQueries({ queryKey: ['announcement'] }),
      ]),
  });
}

export const useSetAnnouncement = () =>
  useAnnouncementChange(({ subsiteId, lang, body }: { subsiteId: number; lang: Language; body: AnnouncementSave }) =>
    apiRequest('PUT', withParams(routes.setSupportAnnouncement.path, { subsiteId: String(subsiteId), lang }), { body }),
  );

export const useRemoveAnnouncement = () =>
  useAnnouncementChange(({ subsiteId, lang }: { subsiteId: number; lang: Language }) =>
    apiRequest('DELETE', withParams(routes.removeSupportAnnouncement.path, { subsiteId: String(subsiteId), lang })),
  );

export function useSupportLog() {
  return useQuery({
    queryKey: LOG_KEY,
    queryFn: ({ signal }) => apiRequest('GET', routes.getSupportLog.path, { schema: supportLogSchema, signal }),
  });
}
