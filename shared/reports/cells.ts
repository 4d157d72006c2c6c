/**
 * What every rendering of a report model shares besides `formatCell` (format.ts): the report's
 * language, a row's value as a cell, a column's heading with its unit, and which formats are
 * numbers (right-aligned). The screen (web/src/features/reports) uses these; they hold nothing but
 * the model's own types, so the browser carries no texts or server code with them.
 */
import { languages, type Language } from '../schemas/common';
import type { CellValue, ColumnFormat, ReportColumn, ReportModel } from '../schemas/reports';
import { formatCell, type ReportLanguage } from './format';

export function reportLanguage(model: Pick<ReportModel, 'lang'>): ReportLanguage {
  return (languages as readonly string[]).includes(model.lang) ? (model.lang as Language) : 'en';
}

/** A cell's raw value from a row (rows are records of unknown values; anything else is shown empty). */
export function cellValue(row: Readonly<Record<string, unknown>>, key: string): CellValue {
  const value = row[key];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
}

export function cellText(row: Readonly<Record<string, unknown>>, column: Pick<ReportColumn, 'key' | 'format'>, lang: ReportLanguage): string {
  return formatCell(cellValue(row, column.key), column.format, lang);
}

export const NUMERIC_FORMATS: ReadonlySet<ColumnFormat> = new Set(['km', 'odometer', 'duration', 'speed', 'count', 'money', 'coordinate', 'amount', 'mass', 'percent', 'decimal']);

/** The column's header: its label, with its unit in brackets. */
export function columnHeading(column: Pick<ReportColumn, 'label' | 'unit'>): string {
  return column.unit ? `${column.label} (${column.unit})` : column.label;
}
