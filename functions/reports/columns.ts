/** Building a report's columns, facts and tables in the caller's language. */
import { translateKey } from '../../shared/i18n';
import type { Language } from '../../shared/schemas/common';
import type { CellValue, ColumnFormat, ReportColumn, ReportFact } from '../../shared/schemas/reports';

/** The unit shown beside a column's label, per format. */
const UNITS: Partial<Record<ColumnFormat, string>> = { km: 'km', odometer: 'km', duration: 'h:mm', speed: 'km/h', money: 'SEK' };

export interface Texts {
  lang: Language;
  t: (key: string, vars?: Readonly<Record<string, string | number>>) => string;
  column: (key: string, format: ColumnFormat, options?: { total?: boolean; label?: string; unit?: string }) => ReportColumn;
  fact: (key: string, value: CellValue, format: ColumnFormat, tone?: ReportFact['tone']) => ReportFact;
}

export function textsFor(lang: Language): Texts {
  const t = (key: string, vars: Readonly<Record<string, string | number>> = {}) => translateKey(lang, key, vars);
  return {
    lang,
    t,
    column: (key, format, options = {}) => ({
      key,
      label: options.label ?? t(`ReportCol_${key}`),
      format,
      unit: options.unit ?? UNITS[format] ?? null,
      total: options.total ?? false,
    }),
    fact: (key, value, format, tone = null) => ({ key, label: t(`ReportFact_${key}`), value, format, unit: UNITS[format] ?? null, tone }),
  };
}
