/**
 * English texts of the report files (PDF, XLSX, CSV) the server renders
 * (functions/reports/render): the furniture around a report's own labels, which its model brings
 * in the caller's language. Never shown in the browser.
 */
export const reportExportsEn = {
  ReportPageOf: 'Page {{page}} of {{pages}}',
  ReportGeneratedAt: 'Generated {{time}}',
  ReportTotal: 'Total',
  ReportAllUnits: 'All units',
  ReportUnit: 'Unit',
  ReportRegistrationNumber: 'Registration number',
  ReportNotes: 'Notes',
  ReportNoRows: 'No rows in this period.',
  ReportFacts: 'Facts',
  ReportValue: 'Value',
} as const;

export type ReportExportsMessages = { readonly [K in keyof typeof reportExportsEn]: string };
