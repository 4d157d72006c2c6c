import type { ReportExportsMessages } from './en';

export const reportExportsSv: ReportExportsMessages = {
  ReportPageOf: 'Sida {{page}} av {{pages}}',
  ReportGeneratedAt: 'Skapad {{time}}',
  ReportTotal: 'Summa',
  ReportAllUnits: 'Alla enheter',
  ReportUnit: 'Enhet',
  ReportRegistrationNumber: 'Registreringsnummer',
  ReportNotes: 'Anmärkningar',
  ReportNoRows: 'Inga rader under perioden.',
  ReportFacts: 'Uppgifter',
  ReportValue: 'Värde',
};
