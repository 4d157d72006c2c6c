/** Report exports and scheduled reports (spread into the manifest, shared/routes.ts); docs/decisions/0037-report-jobs-and-schedules.md. */
import { z } from 'zod';
import { defineRoute } from '../route-def';
import {
  reportExportRequestSchema,
  reportJobAnswerSchema,
  reportJobIdParamSchema,
  reportJobListSchema,
  reportScheduleCreatedSchema,
  reportScheduleIdParamSchema,
  reportScheduleListSchema,
  reportScheduleRequestSchema,
  reportScheduleSchema,
} from '../schemas/report-exports';

const exportsPath = '/api/v1/user/reports/exports';
const schedulesPath = '/api/v1/user/reports/schedules';
const OWN = "Only the caller's own: another user's answers 404 NotFound.";
const SCHEDULE =
  "kind, imeis (comma-separated; absent: every unit the owner may see when it runs), GET /reports/{kind}'s other filters, format ('pdf' | 'xlsx' | 'csv'), every ('day' | 'week' | 'month': yesterday, last week Monday to Sunday, last month, in the TimeZone header's zone), recipients (1 to 20 e-mail addresses: ScheduleRecipientsRequired, TooManyScheduleRecipients, EnterValidEmail), lang, skipEmpty (no e-mail when the report has no rows).";

export const reportExportRoutes = {
  postReportExport: defineRoute({
    operationId: 'postReportExport',
    method: 'POST',
    path: exportsPath,
    capability: 'reports',
    file: 'post-report-export',
    access: 'member',
    summary:
      "Starts an export: 202 with data.job at once (queued), made by the report-export queue. The body is GET /reports/{kind}'s filters with the same keys and errors (over 12 months: 422 TripPeriodTooLong on `to`), the kind, format ('pdf' | 'xlsx' | 'csv') and lang (default the caller's). The same request (same normalised filters) while the caller's job for it is queued or running answers that job, also when sent twice at once. Whether the caller may run the report is decided when the job runs: a refusal fails the job with the refusal's key (ReportNotAllowed, NotFound).",
    body: reportExportRequestSchema,
    response: reportJobAnswerSchema,
  }),
  getReportExports: defineRoute({
    operationId: 'getReportExports',
    method: 'GET',
    path: exportsPath,
    capability: 'reports',
    file: 'get-report-exports',
    access: 'member',
    summary: "The caller's recent exports (at most 50, kept 30 days), newest first, each with its status and progress, and when done its portal link (url).",
    response: reportJobListSchema,
  }),
  getReportExport: defineRoute({
    operationId: 'getReportExport',
    method: 'GET',
    path: `${exportsPath}/{id}`,
    capability: 'reports',
    file: 'get-report-export',
    access: 'member',
    summary: `One export: data.job with status, progress (0..1), and when done url (its portal link) and expiresAt. ${OWN}`,
    params: reportJobIdParamSchema,
    response: reportJobAnswerSchema,
  }),
  downloadReportExport: defineRoute({
    operationId: 'downloadReportExport',
    method: 'GET',
    path: `${exportsPath}/{id}/download`,
    capability: 'reports',
    file: 'get-report-export-download',
    access: 'member',
    summary: `The portal link of a done export: 302 to a URL of the file valid for 5 minutes, saved under the report's name. Not done yet: 409 ReportExportNotReady; expired or gone: 404. ${OWN}`,
    params: reportJobIdParamSchema,
    redirects: true,
  }),
  getReportSchedules: defineRoute({
    operationId: 'getReportSchedules',
    method: 'GET',
    path: schedulesPath,
    capability: 'reports',
    file: 'get-report-schedules',
    access: 'member',
    summary: "The caller's report schedules, with when each runs next.",
    response: reportScheduleListSchema,
  }),
  postReportSchedule: defineRoute({
    operationId: 'postReportSchedule',
    method: 'POST',
    path: schedulesPath,
    capability: 'reports',
    file: 'post-report-schedule',
    access: 'member',
    summary: `Creates a report schedule (201, data.id): ${SCHEDULE} Each period's export is e-mailed once to each recipient, as a portal link that needs the owner's login.`,
    body: reportScheduleRequestSchema,
    response: reportScheduleCreatedSchema,
  }),
  putReportSchedule: defineRoute({
    operationId: 'putReportSchedule',
    method: 'PUT',
    path: `${schedulesPath}/{id}`,
    capability: 'reports',
    file: 'put-report-schedule',
    access: 'member',
    summary: `Replaces a report schedule: ${SCHEDULE} ${OWN}`,
    params: reportScheduleIdParamSchema,
    body: reportScheduleRequestSchema,
    response: reportScheduleSchema,
  }),
  deleteReportSchedule: defineRoute({
    operationId: 'deleteReportSchedule',
    method: 'DELETE',
    path: `${schedulesPath}/{id}`,
    capability: 'reports',
    file: 'delete-report-schedule',
    access: 'member',
    summary: `Deletes a report schedule; exports already made stay. ${OWN}`,
    params: reportScheduleIdParamSchema,
    response: z.null(),
  }),
} as const;
