/**
 * The one way a report value becomes text: the screen, the PDF and the CSV call this, so a figure
 * reads the same everywhere. Numbers follow the language (sv and no: decimal comma and a space
 * between thousands; en: point and comma); `plain` leaves out the thousands separator (CSV cells).
 * Times are ISO 8601 strings that already carry the report zone's offset, so their wall-clock
 * digits are the local time.
 */
import type { CellValue, ColumnFormat } from '../schemas/reports';

export type ReportLanguage = 'en' | 'sv' | 'no';

const LOCALES: Record<ReportLanguage, string> = { en: 'en-GB', sv: 'sv-SE', no: 'nb-NO' };
const YES_NO: Record<ReportLanguage, [string, string]> = { en: ['Yes', 'No'], sv: ['Ja', 'Nej'], no: ['Ja', 'Nei'] };

/** Decimals shown per numeric format. */
export const FORMAT_DECIMALS: Partial<Record<ColumnFormat, number>> = { km: 1, odometer: 0, speed: 0, count: 0, money: 2, coordinate: 5, amount: 2, mass: 1, percent: 1, decimal: 1 };

const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: ReportLanguage, decimals: number, grouping: boolean): Intl.NumberFormat {
  const key = `${lang}:${decimals}:${grouping ? 1 : 0}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALES[lang], { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: grouping });
    formatters.set(key, format);
  }
  return format;
}

/** A number in the language with `decimals` decimals; the minus is a plain hyphen-minus. */
export function formatNumber(value: number, decimals: number, lang: ReportLanguage, options: { plain?: boolean } = {}): string {
  return numberFormat(lang, decimals, !options.plain)
    .format(value)
    .replace(/\u2212/g, '-')
    .replace(/[\u00a0\u202f]/g, ' ');
}

/** Seconds as h:mm (hours may exceed 24). */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(Math.abs(seconds) / 60);
  const text = `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
  return seconds < 0 ? `-${text}` : text;
}

export function formatCell(value: CellValue | undefined, format: ColumnFormat, lang: ReportLanguage, options: { plain?: boolean } = {}): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'boolean') {
    const [yes, no] = YES_NO[lang];
    return value ? yes : no;
  }
  if (typeof value === 'number') {
    if (format === 'duration') return formatDuration(value);
    const decimals = FORMAT_DECIMALS[format];
    return decimals === undefined ? String(value) : formatNumber(value, decimals, lang, options);
  }
  if (format === 'time') return value.slice(11, 16);
  if (format === 'dateTime') return `${value.slice(0, 10)} ${value.slice(11, 16)}`;
  if (format === 'day') return value.slice(0, 10);
  return value;
}
