/** Autoplan mileage reporting (spread into the manifest, shared/routes.ts); docs/decisions/0039-autoplan.md. */
import { defineRoute } from '../route-def';
import { autoplanReportSchema, autoplanRequestSchema, autoplanSettingsSchema, autoplanSettingsUpdateSchema } from '../schemas/autoplan';

export const autoplanRoutes = {
  postAutoplanReport: defineRoute({
    operationId: 'postAutoplanReport',
    method: 'POST',
    path: '/api/v1/user/reports/autoplan',
    capability: 'reports',
    file: 'post-autoplan-report',
    access: 'member',
    summary:
      "Reports a vehicle's month to Autoplan (imei, month yyyy-MM): odometer at the month's start and end, trips, total, business, private and other km from the month's rollup, with Message AutoplanReported. Only on days 1 to 4 of the month in the account's zone (default Europe/Stockholm), for the previous month: 422 AutoplanWrongDay, AutoplanWrongMonth on month. Once per vehicle and month, also when sent twice at once: 422 AutoplanMonthAlreadyReported on month. Autoplan's refusals: 422 AutoplanNoLicencePlateMatch or AutoplanServiceCarNoReport on imei; no answer: 504 AutoplanNoResponse; another answer: 502 AutoplanRejected; no connection set up for the account: 409 AutoplanNotConfigured; a unit without registration number: 422 AutoplanRegistrationNumberMissing on imei. A failed report can be sent again. A unit the caller may not see: 404.",
    body: autoplanRequestSchema,
    response: autoplanReportSchema,
  }),
  getAutoplanSettings: defineRoute({
    operationId: 'getAutoplanSettings',
    method: 'GET',
    path: '/api/v1/administration/autoplan',
    capability: 'reports',
    file: 'get-autoplan-settings',
    access: 'admin',
    summary: "The account's Autoplan setting: automatic (every vehicle reported on the 1st, the result e-mailed to the account's admins).",
    response: autoplanSettingsSchema,
  }),
  putAutoplanSettings: defineRoute({
    operationId: 'putAutoplanSettings',
    method: 'PUT',
    path: '/api/v1/administration/autoplan',
    capability: 'reports',
    file: 'put-autoplan-settings',
    access: 'admin',
    summary: "Turns the account's automatic Autoplan reporting on or off (automatic: boolean, else 422 InvalidAutoplanAutomatic), with Message AutoplanSettingsSaved.",
    body: autoplanSettingsUpdateSchema,
    response: autoplanSettingsSchema,
  }),
} as const;
