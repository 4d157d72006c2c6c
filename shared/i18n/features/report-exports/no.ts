import type { ReportExportsMessages } from './en';

export const reportExportsNo: ReportExportsMessages = {
  ReportPageOf: 'Side {{page}} av {{pages}}',
  ReportGeneratedAt: 'Generert {{time}}',
  ReportTotal: 'Sum',
  ReportAllUnits: 'Alle enheter',
  ReportUnit: 'Enhet',
  ReportRegistrationNumber: 'Registreringsnummer',
  ReportNotes: 'Merknader',
  ReportNoRows: 'Ingen rader i perioden.',
  ReportFacts: 'Opplysninger',
  ReportValue: 'Verdi',
};
