/**
 * The scheduled-report form's rules (react-hook-form with zod): a kind the caller may run, the
 * units (none: all), the format, how often, one to 20 recipients' e-mail addresses, the language
 * and whether an empty report is skipped. Messages are i18n keys.
 */
import { z } from 'zod';
import { reportFormats, reportKinds } from '../../../../shared/schemas/reports';
import { languages } from '../../../../shared/schemas/common';
import type { ReportSchedule, ScheduleBody } from './api/reports-api';
import { scheduleEvery } from './api/reports-api';

export const SCHEDULE_RECIPIENTS_MAX = 20;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const scheduleFormSchema = z.object({
  kind: z.enum(reportKinds, { message: 'RptChooseKind' }),
  imeis: z.array(z.string()),
  format: z.enum(reportFormats),
  every: z.enum(scheduleEvery),
  recipients: z
    .array(z.string().trim().toLowerCase())
    .min(1, 'RptRecipientsRequired')
    .max(SCHEDULE_RECIPIENTS_MAX, 'RptTooManyRecipients')
    .refine((list) => list.every((email) => email.length <= 254 && EMAIL.test(email)), 'RptRecipientInvalid'),
  lang: z.enum(languages),
  skipEmpty: z.boolean(),
});
export type ScheduleFormValues = z.input<typeof scheduleFormSchema>;

/** A saved schedule's values in the form. */
export function scheduleFormValues(schedule: ReportSchedule): ScheduleFormValues {
  const imeis = typeof schedule.imeis === 'string' ? schedule.imeis.split(',').filter(Boolean) : (schedule.imeis ?? []);
  return { kind: schedule.kind, imeis, format: schedule.format, every: schedule.every, recipients: schedule.recipients, lang: schedule.lang, skipEmpty: schedule.skipEmpty };
}

/** The form's values as the API takes them: `imeis` comma-separated, left out for all units. */
export function scheduleBody(values: z.output<typeof scheduleFormSchema>): ScheduleBody {
  const { imeis, ...rest } = values;
  return imeis.length > 0 ? { ...rest, imeis: imeis.join(',') } : rest;
}
