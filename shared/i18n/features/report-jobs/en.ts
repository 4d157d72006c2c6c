/** English texts of report exports and schedules (shared/schemas/report-exports.ts); merged into the flat key space (shared/i18n/index.ts). */
export const reportJobsEn = {
  InvalidReportLanguage: 'Choose English, Swedish or Norwegian for the report.',
  InvalidScheduleEvery: 'Choose every day, week or month.',
  ScheduleRecipientsRequired: 'Add at least one e-mail address to send the report to.',
  TooManyScheduleRecipients: 'A schedule can have at most 20 recipients.',
  InvalidSkipEmpty: 'Choose whether empty reports are sent.',
  ReportExportFailed: 'The report could not be made. Try again, or choose a shorter period.',
  ReportOwnerGone: 'The report could not be made: the user who asked for it no longer exists.',
  ReportExportNotReady: 'The report is not ready yet.',
} as const;

export type ReportJobsMessages = { readonly [K in keyof typeof reportJobsEn]: string };
