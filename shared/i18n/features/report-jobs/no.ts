import type { ReportJobsMessages } from './en';

/** Norwegian texts of report exports and schedules: exactly the English keys (the type checks it). */
export const reportJobsNo: ReportJobsMessages = {
  InvalidReportLanguage: 'Velg engelsk, svensk eller norsk for rapporten.',
  InvalidScheduleEvery: 'Velg hver dag, uke eller måned.',
  ScheduleRecipientsRequired: 'Legg til minst én e-postadresse rapporten skal sendes til.',
  TooManyScheduleRecipients: 'En plan kan ha høyst 20 mottakere.',
  InvalidSkipEmpty: 'Velg om tomme rapporter skal sendes.',
  ReportExportFailed: 'Rapporten kunne ikke lages. Prøv igjen, eller velg en kortere periode.',
  ReportOwnerGone: 'Rapporten kunne ikke lages: brukeren som bestilte den, finnes ikke lenger.',
  ReportExportNotReady: 'Rapporten er ikke klar ennå.',
};
