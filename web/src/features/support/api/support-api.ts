/**
 * The support page's calls (docs/api.md Support): account search, an account's units with their
 * lock state, unlocking, the account's settings that are support's (basic-only, subscription type
 * and report frequency lock per unit, SMS credits), announcement texts, the support log and the web
 * vitals. Every answer is checked against shared/schemas/support.ts (and shared/schemas/web-vitals.ts).
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import {
  smsCreditsBalanceSchema,
  supportAccountListSchema,
  supportAccountUnitsSchema,
  supportAnnouncementListSchema,
  supportLogSchema,
  type AnnouncementSave,
  type SmsCreditsAdd,
  type SupportAccountUnits,
  type SupportSearchField,
  type SupportUnit,
} from '../../../../../shared/schemas/support';
import { unitLockSchema } from '../../../../../shared/schemas/unit-lock';
import { webVitalsReportSchema } from '../../../../../shared/schemas/web-vitals';
import type { WebVitalsPeriod } from '../../../../../shared/web-vitals';
import type { Language } from '../../../../../shared/schemas/common';
import { apiRequest } from '../../../app/api-client';
import { withParams } from '../../triplog/api/trip-paths';

const LOG_KEY = ['support-log'] as const;
/** An account's pages of units, of every search. */
const unitsKey = (accountId: string) => ['support-account-units', accountId] as const;
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

/** Units per page of the support panel: a screenful or two, however large the account. */
export const SUPPORT_UNITS_PAGE = 100;

/**
 * An account with its settings and its units by name, a page at a time (a search `q` on the
 * server, as the units list): the first page carries the account and settings too.
 */
export function useSupportAccountUnits(accountId: string | null, q: string) {
  const queryClient = useQueryClient();
  const search = q.trim();
  return useInfiniteQuery({
    queryKey: [...unitsKey(accountId ?? ''), search],
    enabled: accountId !== null,
    initialPageParam: null as string | null,
    getNextPageParam: (last: SupportAccountUnits) => last.nextCursor,
    queryFn: async ({ signal, pageParam }) => {
      const params = new URLSearchParams({ limit: String(SUPPORT_UNITS_PAGE), ...(search ? { q: search } : {}), ...(pageParam ? { cursor: pageParam } : {}) });
      const path = `${withParams(routes.getSupportAccountUnits.path, { accountId: accountId ?? '' })}?${params.toString()}`;
      const out = await apiRequest('GET', path, { schema: supportAccountUnitsSchema, signal });
      if (!pageParam) void queryClient.invalidateQueries({ queryKey: LOG_KEY });
      return out;
    },
    // Keep the rows of the last search on screen while the next one loads.
    placeholderData: (previous) => previous,
  });
}

export function useSupportUnlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (imei: string) => apiRequest('POST', withParams(routes.supportUnlockUnit.path, { imei }), { schema: unitLockSchema }),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['support-account-units'] }), queryClient.invalidateQueries({ queryKey: LOG_KEY })]),
  });
}


/**
 * A change to the chosen account: on success the panel's copy is updated with what was saved
 * (the account's units are listed through an index that may lag a moment behind) and the log is
 * read again.
 */
function useAccountChange<V, R>(accountId: string, run: (vars: V) => Promise<R>, apply: (data: SupportAccountUnits, vars: V, answer: R) => SupportAccountUnits) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (answer, vars) => {
      queryClient.setQueriesData<InfiniteData<SupportAccountUnits, string | null>>({ queryKey: unitsKey(accountId) }, (data) =>
        data ? { ...data, pages: data.pages.map((page) => apply(page, vars, answer)) } : data,
      );
      return queryClient.invalidateQueries({ queryKey: LOG_KEY });
    },
  });
}

export const useSupportSetBasicOnly = (accountId: string) =>
  useAccountChange(
    accountId,
    (basicOnly: boolean) => apiRequest('PUT', withParams(routes.setSupportAccountSettings.path, { accountId }), { body: { basicOnly } }),
    (data, basicOnly) => ({ ...data, settings: { ...data.settings, basicOnly } }),
  );

export type UnitSettingChange =
  | { imei: string; field: 'subscriptionType'; value: SupportUnit['subscriptionType'] }
  | { imei: string; field: 'reportFrequencyChange'; value: SupportUnit['reportFrequencyChange'] };

export const useSupportSetUnitSetting = (accountId: string) =>
  useAccountChange(
    accountId,
    (change: UnitSettingChange) =>
      change.field === 'subscriptionType'
        ? apiRequest('PUT', withParams(routes.setSupportSubscriptionType.path, { imei: change.imei }), { body: { subscriptionType: change.value } })
        : apiRequest('PUT', withParams(routes.setSupportReportFrequencyChange.path, { imei: change.imei }), { body: { reportFrequencyChange: change.value } }),
    (data, change) => ({ ...data, units: data.units.map((u) => (u.imei === change.imei ? { ...u, [change.field]: change.value } : u)) }),
  );

export const useSupportAddCredits = (accountId: string) =>
  useAccountChange(
    accountId,
    (body: SmsCreditsAdd) => apiRequest('POST', withParams(routes.addSupportSmsCredits.path, { accountId }), { body, schema: smsCreditsBalanceSchema }),
    (data, _body, answer) => ({ ...data, settings: { ...data.settings, smsCredits: answer.SmsCredits } }),
  );

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

/** The web vitals page: percentiles per metric and route over the period (docs/decisions/0042-web-vitals.md). */
export function useWebVitals(period: WebVitalsPeriod) {
  return useQuery({
    queryKey: ['support-web-vitals', period],
    queryFn: ({ signal }) => apiRequest('GET', `${routes.getSupportWebVitals.path}?period=${period}`, { schema: webVitalsReportSchema, signal }),
  });
}
