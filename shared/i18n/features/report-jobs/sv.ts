import type { ReportJobsMessages } from './en';

/** Swedish texts of report exports and schedules: exactly the English keys (the type checks it). */
export const reportJobsSv: ReportJobsMessages = {
  InvalidReportLanguage: 'Välj engelska, svenska eller norska för rapporten.',
  InvalidScheduleEvery: 'Välj varje dag, vecka eller månad.',
  ScheduleRecipientsRequired: 'Lägg till minst en e-postadress att skicka rapporten till.',
  TooManyScheduleRecipients: 'Ett schema kan ha högst 20 mottagare.',
  InvalidSkipEmpty: 'Välj om tomma rapporter ska skickas.',
  ReportExportFailed: 'Rapporten kunde inte skapas. Försök igen eller välj en kortare period.',
  ReportOwnerGone: 'Rapporten kunde inte skapas: användaren som beställde den finns inte längre.',
  ReportExportNotReady: 'Rapporten är inte klar än.',
};
