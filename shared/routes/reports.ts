/** The reports capability's on-screen route (spread into the manifest, shared/routes.ts). */
import { z } from 'zod';
import { reportJobAnswerSchema } from '../schemas/report-exports';
import { reportKindParamSchema, reportModelSchema, reportQuerySchema } from '../schemas/reports';
import { defineRoute } from '../route-def';

export const reportRoutes = {
  getReport: defineRoute({
    operationId: 'getReport',
    method: 'GET',
    path: '/api/v1/user/reports/{kind}',
    capability: 'reports',
    file: 'get-report',
    access: 'member',
    apiKeyScope: 'reports:read',
    summary:
      "A report over local days (TimeZone header; at most 12 months: 422 TripPeriodTooLong on `to`) for the named units (`imeis`, comma-separated) or every unit the caller may see. A kind the caller may not run (the feature profile's reports, a unit locked by someone else: only benefitValue and summary, a basic-only account: only tripLog) answers 403 ReportNotAllowed; a unit the caller may not see, 404. The answer is the report model the PDF, Excel and CSV exports render too; a trip log, benefit value, eco driving or theft report over more than 31 days or 20 units is made by a job instead (202 `data.job`, format json: its file is the model).",
    params: reportKindParamSchema,
    query: reportQuerySchema,
    response: z.union([reportModelSchema, reportJobAnswerSchema]),
  }),
} as const;
