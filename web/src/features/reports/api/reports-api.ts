/**
 * The reports page's calls (docs/api.md Reports): a report's model, or the job a large request
 * becomes; export jobs and their progress; scheduled reports. Every answer is checked against a
 * schema.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { routes } from '../../../../../shared/routes';
import { reportFormats, reportKinds, reportModelSchema, type ReportFormat, type ReportModel } from '../../../../../shared/schemas/reports';
import { languages } from '../../../../../shared/schemas/common';
import { apiRequest } from '../../../app/api-client';
import { withParams } from '../../triplog/api/trip-paths';
import { exportBody, reportQueryString, type ReportParams } from '../report-request';

const EXPORTS_PATH = '/api/v1/user/reports/exports';
const SCHEDULES_PATH = '/api/v1/user/reports/schedules';

/** An export, or a report too large to answer at once: its state until the file or model is ready. */
export const reportJobSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  progress: z.number().min(0).max(1),
  url: z.string().nullish(),
  expiresAt: z.string().nullish(),
  kind: z.enum(reportKinds).optional(),
  format: z.enum(reportFormats).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  createdAt: z.string().optional(),
  /** When failed: a message key. */
  error: z.string().optional(),
});
export type ReportJob = z.infer<typeof reportJobSchema>;

/** The name a job's file is saved under when its answer names none. */
export const fileNameOf = (job: Pick<ReportJob, 'id' | 'kind' | 'from' | 'to' | 'format'>): string =>
  job.kind && job.from && job.to ? `${job.kind}-${job.from}-${job.to}.${job.format ?? 'pdf'}` : `report-${job.id}.${job.format ?? 'pdf'}`;

const jobAnswerSchema = z.object({ job: reportJobSchema });
const jobListSchema = z.union([z.array(reportJobSchema), z.object({ jobs: z.array(reportJobSchema) }).transform((d) => d.jobs)]);

export type ReportAnswer = { model: ReportModel } | { job: ReportJob };
const reportAnswerSchema = z.union([reportModelSchema.transform((model) => ({ model })), jobAnswerSchema]);

export const scheduleEvery = ['day', 'week', 'month'] as const;
export const reportScheduleSchema = z.object({
  id: z.string(),
  kind: z.enum(reportKinds),
  imeis: z.union([z.array(z.string()), z.string()]).nullish(),
  format: z.enum(reportFormats),
  every: z.enum(scheduleEvery),
  recipients: z.array(z.string()),
  lang: z.enum(languages),
  skipEmpty: z.boolean(),
});
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;
export type ScheduleBody = Omit<ReportSchedule, 'id' | 'imeis'> & { imeis?: string };
const scheduleListSchema = z.object({ schedules: z.array(reportScheduleSchema) });

export const reportKey = (params: ReportParams | null) => ['report', params] as const;

/** A report's model, or the job it became (202); null asks for nothing. */
export function useReport(params: ReportParams | null) {
  return useQuery({
    queryKey: reportKey(params),
    queryFn: ({ signal }) =>
      apiRequest('GET', `${withParams(routes.getReport.path, { kind: (params as ReportParams).kind })}?${reportQueryString(params as ReportParams)}`, {
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
    queryFn: ({ signal }) => apiRequest('GET', `${EXPORTS_PATH}/${encodeURIComponent(id ?? '')}`, { schema: jobAnswerSchema, signal }).then((d) => d.job),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && (query.state.data.status === 'done' || query.state.data.status === 'failed') ? false : 1_000),
  });
}

/** The caller's recent exports, newest first; asked for again every few seconds while one is not finished. */
export function useReportExports() {
  return useQuery({
    queryKey: ['report-exports'],
    queryFn: ({ signal }) => apiRequest('GET', EXPORTS_PATH, { schema: jobListSchema, signal }),
    refetchInterval: (query) => (query.state.data?.some((job) => job.status === 'queued' || job.status === 'running') ? 3_000 : false),
  });
}

/** Starts an export (the same request while one runs answers the same job). */
export function useStartExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ params, format, lang }: { params: ReportParams; format: ReportFormat; lang: string }) =>
      apiRequest('POST', EXPORTS_PATH, { body: exportBody(params, format, lang), schema: jobAnswerSchema }).then((d) => d.job),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['report-exports'] }),
  });
}

export function useReportSchedules() {
  return useQuery({
    queryKey: ['report-schedules'],
    queryFn: ({ signal }) => apiRequest('GET', SCHEDULES_PATH, { schema: scheduleListSchema, signal }).then((d) => d.schedules),
  });
}

export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: ScheduleBody }) =>
      id ? apiRequest('PUT', `${SCHEDULES_PATH}/${encodeURIComponent(id)}`, { body }) : apiRequest('POST', SCHEDULES_PATH, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['report-schedules'] }),
  });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `${SCHEDULES_PATH}/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['report-schedules'] }),
  });
}
