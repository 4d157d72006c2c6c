/**
 * The reports page's calls (docs/api.md Reports): a report's model, or the job a large request
 * becomes; export jobs and their progress; scheduled reports. Every answer is checked against a
 * schema.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { routes } from '../../../../../shared/routes';
import {
  reportJobAnswerSchema,
  reportJobListSchema,
  reportScheduleListSchema,
  type ReportJob,
  type reportScheduleRequestSchema,
} from '../../../../../shared/schemas/report-exports';
import { reportModelSchema, type ReportFormat, type ReportModel } from '../../../../../shared/schemas/reports';
import { apiRequest } from '../../../app/api-client';
import { withParams } from '../../triplog/api/trip-paths';
import { currentLanguage } from '../../../i18n/i18n';
import { exportBody, reportQueryString, type ReportParams } from '../report-request';

/** The name a job's file is saved under when its answer names none. */
export const fileNameOf = (job: Pick<ReportJob, 'kind' | 'from' | 'to' | 'format'>): string => `${job.kind}-${job.from}-${job.to}.${job.format}`;

export type { ReportJob, ReportSchedule } from '../../../../../shared/schemas/report-exports';
/** POST and PUT /reports/schedules as sent. */
export type ReportScheduleBody = z.input<typeof reportScheduleRequestSchema>;

type ReportAnswer = { model: ReportModel } | { job: ReportJob };
const reportAnswerSchema = z.union([reportModelSchema.transform((model) => ({ model })), reportJobAnswerSchema]);

const reportKey = (params: ReportParams | null, lang: string) => ['report', params, lang] as const;

/** A report's model in the page's language, or the job it became (202); null asks for nothing. */
export function useReport(params: ReportParams | null) {
  const lang = currentLanguage();
  return useQuery({
    queryKey: reportKey(params, lang),
    queryFn: ({ signal }) =>
      apiRequest('GET', `${withParams(routes.getReport.path, { kind: (params as ReportParams).kind })}?${reportQueryString(params as ReportParams)}&lang=${lang}`, {
        schema: reportAnswerSchema,
        signal,
      }) as Promise<ReportAnswer>,
    enabled: params !== null,
    staleTime: 60_000,
    retry: (count, error) => count < 2 && !(error instanceof Error && 'status' in error && [403, 404, 422].includes((error as { status: number }).status)),
  });
}

/** A job's state, asked for every second until it is done or failed. */
export function useReportJob(id: string | null) {
  return useQuery({
    queryKey: ['report-job', id],
    queryFn: ({ signal }) => apiRequest('GET', withParams(routes.getReportExport.path, { id: id ?? '' }), { schema: reportJobAnswerSchema, signal }).then((d) => d.job),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && (query.state.data.status === 'done' || query.state.data.status === 'failed') ? false : 1_000),
  });
}

/** The caller's recent exports, newest first; asked for again every few seconds while one is not finished. */
export function useReportExports() {
  return useQuery({
    queryKey: ['report-exports'],
    queryFn: ({ signal }) => apiRequest('GET', routes.getReportExports.path, { schema: reportJobListSchema, signal }).then((d) => d.jobs),
    refetchInterval: (query) => (query.state.data?.some((job) => job.status === 'queued' || job.status === 'running') ? 3_000 : false),
  });
}

/** Starts an export (the same request while one runs answers the same job). */
export function useStartExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ params, format, lang }: { params: ReportParams; format: ReportFormat; lang: string }) =>
      apiRequest('POST', routes.postReportExport.path, { body: exportBody(params, format, lang), schema: reportJobAnswerSchema }).then((d) => d.job),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['report-exports'] }),
  });
}

export function useReportSchedules() {
  return useQuery({
    queryKey: ['report-schedules'],
    queryFn: ({ signal }) => apiRequest('GET', routes.getReportSchedules.path, { schema: reportScheduleListSchema, signal }).then((d) => d.schedules),
  });
}

export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: ReportScheduleBody }) =>
      id ? apiRequest('PUT', withParams(routes.putReportSchedule.path, { id }), { body }) : apiRequest('POST', routes.postReportSchedule.path, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['report-schedules'] }),
  });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', withParams(routes.deleteReportSchedule.path, { id })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['report-schedules'] }),
  });
}
