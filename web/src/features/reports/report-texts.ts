/** The page's names of the report kinds, formats, periods and groupings (i18n keys of the reports-page texts). */
import type { ExportFormat, ReportGrouping, ReportKind } from '../../../../shared/schemas/reports';
import type { PeriodPreset, SummaryGrouping } from './report-request';

/** A kind's name: the title the server gives its report (the reports texts, loaded with the page). */
export const reportKindKey = (kind: ReportKind): string => `ReportTitle_${kind}`;

/** The formats by their names, which are the same in every language (json: a large report's model for the screen). */
export const reportFormatNames: Readonly<Record<ExportFormat, string>> = { pdf: 'PDF', xlsx: 'Excel', csv: 'CSV', json: 'JSON' };

export const periodPresetKeys: Readonly<Record<PeriodPreset, string>> = {
  lastMonth: 'RptPeriodLastMonth',
  thisYear: 'RptPeriodThisYear',
  lastYear: 'RptPeriodLastYear',
  custom: 'RptPeriodCustom',
};

export const groupingKeys: Readonly<Record<ReportGrouping, string>> = { day: 'RptGroupDay', week: 'RptGroupWeek', month: 'RptGroupMonth' };
export const summaryGroupingKeys: Readonly<Record<SummaryGrouping, string>> = { unit: 'RptByUnit', driver: 'RptByDriver' };
export const everyKeys: Readonly<Record<ReportGrouping, string>> = { day: 'RptEveryDay', week: 'RptEveryWeek', month: 'RptEveryMonth' };
