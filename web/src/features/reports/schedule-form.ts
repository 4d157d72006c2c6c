/**
 * The scheduled-report form (react-hook-form with zod): the fields of POST /reports/schedules with
 * the server's own rules and message keys (shared/schemas/report-exports.ts), except the units,
 * which the form holds as a list (none: all units) and sends comma-separated.
 */
import { z } from 'zod';
import { REPORT_IMEIS_MAX } from '../../../../shared/schemas/reports';
import { reportScheduleRequestSchema } from '../../../../shared/schemas/report-exports';
import type { ReportSchedule, ReportScheduleBody } from './api/reports-api';

const rules = reportScheduleRequestSchema.shape;

export const scheduleFormSchema = z.object({
  kind: rules.kind,
  imeis: z.array(z.string()).max(REPORT_IMEIS_MAX, 'TooManyUnits'),
  format: rules.format,
  every: rules.every,
  recipients: rules.recipients,
  lang: rules.lang,
  skipEmpty: z.boolean(),
});
export type ScheduleFormValues = z.input<typeof scheduleFormSchema>;

/** A saved schedule's values in the form. */
export function scheduleFormValues(schedule: ReportSchedule): ScheduleFormValues {
  return { kind: schedule.kind, imeis: schedule.imeis ?? [], format: schedule.format, every: schedule.every, recipients: schedule.recipients, lang: schedule.lang, skipEmpty: schedule.skipEmpty };
}

/** The form's values as the API takes them: `imeis` comma-separated, left out for all units. */
export function scheduleBody(values: z.output<typeof scheduleFormSchema>): ReportScheduleBody {
  const { imeis, ...rest } = values;
  return imeis.length > 0 ? { ...rest, imeis: imeis.join(',') } : rest;
}
