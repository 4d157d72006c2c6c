/**
 * What the three renderers share: the report's language, the texts around a report's own labels,
 * column widths by format, and the progress count.
 */
import { translateKey } from '../../../shared/i18n/index';
import type { ReportExportsMessages } from '../../../shared/i18n/features/report-exports/en';
import type { ReportLanguage } from '../../../shared/reports/format';
import type { ColumnFormat, ReportModel } from '../../../shared/schemas/reports';
import { reportLanguage } from '../../../shared/reports/cells';
export { cellText, cellValue, columnHeading, NUMERIC_FORMATS, reportLanguage } from '../../../shared/reports/cells';
import type { ReportOutput } from './output';

export type ReportText = (key: keyof ReportExportsMessages, vars?: Readonly<Record<string, string | number>>) => string;

export function reportText(lang: ReportLanguage): ReportText {
  return (key, vars) => translateKey(lang, key, vars);
}

/**
 * A column's width in characters by what it shows: dates and times narrow, numbers by their
 * digits, free text wide. The PDF gives dates, times and numbers these widths (text columns share
 * the rest); the XLSX sets them as they are.
 */
export const FORMAT_WIDTH: Readonly<Record<ColumnFormat, number>> = {
  text: 24,
  day: 10,
  time: 6,
  dateTime: 16,
  km: 9,
  odometer: 9,
  duration: 7,
  speed: 6,
  count: 6,
  yesNo: 5,
  money: 11,
  coordinate: 10,
  amount: 9,
  mass: 9,
  percent: 7,
  decimal: 6,
};

/** Counts rows done out of every row of the model (main tables and appendices) for `onProgress`. */
export class Progress {
  private done = 0;
  private lastReported = -1;
  private readonly total: number;

  constructor(
    model: ReportModel,
    private readonly report: ((fraction: number) => void) | undefined,
  ) {
    this.total = model.units.reduce((sum, unit) => sum + unit.rows.length + unit.tables.reduce((n, t) => n + t.rows.length, 0), 0);
  }

  /** `count` more rows are done; reports whole percents only. */
  add(count: number): void {
    this.done += count;
    this.emit(this.total === 0 ? 1 : Math.min(1, this.done / this.total) * 0.99);
  }

  finish(): void {
    this.emit(1);
  }

  private emit(fraction: number): void {
    const percent = Math.floor(fraction * 100);
    if (!this.report || percent <= this.lastReported) return;
    this.lastReported = percent;
    this.report(percent / 100);
  }
}

/** Rows drawn or written between two waits for the reader. */
const ROWS_PER_TURN = 200;

/** What every format's renderer starts from: the model, where it writes, the language, the progress. */
export abstract class ReportRenderer {
  protected readonly lang: ReportLanguage;
  protected readonly t: ReportText;

  constructor(
    protected readonly model: ReportModel,
    protected readonly output: ReportOutput,
    protected readonly progress: Progress,
  ) {
    this.lang = reportLanguage(model);
    this.t = reportText(this.lang);
  }

  /** After row `index` of a table of `count`: every few hundred rows and after the last, counts them and waits for the reader. */
  protected async rowDone(index: number, count: number): Promise<void> {
    const done = index + 1;
    if (done % ROWS_PER_TURN !== 0 && done !== count) return;
    this.progress.add(done % ROWS_PER_TURN || ROWS_PER_TURN);
    await this.output.ready();
  }
}
