/**
 * Report exports and scheduled reports (docs/api.md Reports, docs/decisions/0037-report-jobs-and-schedules.md):
 * an export is a job that renders the report of a request (GET /reports/{kind}'s filters, the kind,
 * a format and a language) into a file the caller downloads through a portal link; a schedule
 * makes an export of the last complete day, week or month and e-mails its recipients the link.
 */
import { z } from 'zod';
import { languageSchema } from './common';
import { exportFormats, reportFormats, reportKindParamSchema, reportKinds, reportQuerySchema } from './reports';
import { tripPeriodProblem } from './trips';
import { userEmailSchema } from './administration';

/** The key GET /reports/{kind}'s model names for a format (shared/schemas/reports.ts). */
const REPORT_FORMAT_KEY = 'InvalidReportFormat';

export const reportExportMessageKeys = {
  InvalidReportLanguage: 'InvalidReportLanguage',
  InvalidScheduleEvery: 'InvalidScheduleEvery',
  ScheduleRecipientsRequired: 'ScheduleRecipientsRequired',
  TooManyScheduleRecipients: 'TooManyScheduleRecipients',
  InvalidSkipEmpty: 'InvalidSkipEmpty',
  /** A job's `error`: the export could not be made (anything but a refusal of the report itself). */
  ReportExportFailed: 'ReportExportFailed',
  /** A job's `error`: its owner no longer exists. */
  ReportOwnerGone: 'ReportOwnerGone',
  /** The download of a job that is not done. */
  ReportExportNotReady: 'ReportExportNotReady',
} as const;
const keys = reportExportMessageKeys;

export const reportJobStatuses = ['queued', 'running', 'done', 'failed'] as const;
export type ReportJobStatus = (typeof reportJobStatuses)[number];

/** Files and jobs are kept this long (the bucket's lifecycle rule and the items' expiry). */
export const REPORT_EXPORT_KEEP_DAYS = 30;
/** Where export files live in the files bucket (`reports/<job id>`). */
export const REPORT_FILES_PREFIX = 'reports/';
/** The presigned URL a download redirects to is valid this long. */
export const REPORT_DOWNLOAD_URL_SECONDS = 5 * 60;
/** A schedule names at most this many recipients. */
export const SCHEDULE_RECIPIENTS_MAX = 20;
/** The caller's export list shows this many, newest first. */
export const REPORT_EXPORTS_LISTED = 50;

// The report's own keys (shared/schemas/reports.ts), as GET /reports/{kind} answers them.
const kind = reportKindParamSchema.shape.kind;
const format = z.enum(reportFormats, { message: REPORT_FORMAT_KEY });
const exportFormat = z.enum(exportFormats, { message: REPORT_FORMAT_KEY });
const lang = z.enum(languageSchema.options, { message: keys.InvalidReportLanguage });

/** POST /reports/exports: GET /reports/{kind}'s filters (the same keys and errors), the kind, the format and the language (default: the caller's). */
export const reportExportRequestSchema = z
  .object({ ...reportQuerySchema.shape, kind, format: exportFormat, lang: lang.optional() })
  .superRefine((value, ctx) => {
    const problem = tripPeriodProblem(value.from, value.to);
    if (problem) ctx.addIssue({ code: 'custom', path: ['to'], message: problem });
  });
export type ReportExportRequest = z.infer<typeof reportExportRequestSchema>;

/** Any id: one that is not the caller's is not found (404), whatever it looks like. */
export const reportJobIdParamSchema = z.object({ id: z.string().min(1).max(100) });

export const reportJobSchema = z.object({
  id: z.string(),
  kind: z.enum(reportKinds),
  format: z.enum(exportFormats),
  from: z.string(),
  to: z.string(),
  status: z.enum(reportJobStatuses),
  /** 0..1. */
  progress: z.number().min(0).max(1),
  /** When done: the portal link that downloads the file (GET /reports/exports/{id}/download). */
  url: z.string().optional(),
  /** When failed: a message key. */
  error: z.string().optional(),
  /** ISO 8601 with offset. */
  createdAt: z.string(),
  finishedAt: z.string().optional(),
  /** When the file and the job are deleted. */
  expiresAt: z.string(),
  /** The schedule the export was made for. */
  scheduleId: z.string().optional(),
});
export type ReportJob = z.infer<typeof reportJobSchema>;
export const reportJobAnswerSchema = z.object({ job: reportJobSchema });
export const reportJobListSchema = z.object({ jobs: z.array(reportJobSchema) });

export const scheduleEvery = ['day', 'week', 'month'] as const;
export type ScheduleEvery = (typeof scheduleEvery)[number];

const { from: _from, to: _to, ...filterShape } = reportQuerySchema.shape;

/** E-mail addresses as login names are (trimmed, lower case), each once, 1 to 20 of them. */
const recipientsSchema = z
  .array(userEmailSchema, { message: keys.ScheduleRecipientsRequired })
  .transform((list) => [...new Set(list)])
  .pipe(z.array(z.string()).min(1, keys.ScheduleRecipientsRequired).max(SCHEDULE_RECIPIENTS_MAX, keys.TooManyScheduleRecipients));

/** POST /reports/schedules and PUT /reports/schedules/{id}: what to run, how often, for whom. */
export const reportScheduleRequestSchema = z.object({
  ...filterShape,
  kind,
  format,
  every: z.enum(scheduleEvery, { message: keys.InvalidScheduleEvery }),
  recipients: recipientsSchema,
  lang,
  skipEmpty: z.boolean({ message: keys.InvalidSkipEmpty }).default(false),
});
export type ReportScheduleRequest = z.infer<typeof reportScheduleRequestSchema>;

export const reportScheduleIdParamSchema = reportJobIdParamSchema;

export const reportScheduleSchema = z.object({
  id: z.string(),
  kind: z.enum(reportKinds),
  imeis: z.array(z.string()).optional(),
  driverId: z.string().optional(),
  type: z.string().optional(),
  groupBy: z.string().optional(),
  by: z.string().optional(),
  department: z.string().optional(),
  tag: z.string().optional(),
  project: z.string().optional(),
  format: z.enum(reportFormats),
  every: z.enum(scheduleEvery),
  recipients: z.array(z.string()),
  lang: languageSchema,
  skipEmpty: z.boolean(),
  /** The zone its periods are days of (the TimeZone header when it was saved). */
  timeZone: z.string(),
  /** ISO 8601 with offset: when it next runs. */
  nextRunAt: z.string(),
  /** The last period it was run for (yyyy-MM-dd..yyyy-MM-dd), if any. */
  lastPeriod: z.string().optional(),
});
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;
export const reportScheduleListSchema = z.object({ schedules: z.array(reportScheduleSchema) });
export const reportScheduleCreatedSchema = z.object({ id: z.string() });
