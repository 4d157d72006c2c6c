/**
 * The XLSX of a report, written by exceljs's streaming workbook writer: each row is committed as
 * it is added and each sheet before the next begins, so the workbook is never held in memory.
 *
 * Sheets (docs/decisions/0035-report-exports.md), in the `units` layout: with more than one unit,
 * first a totals sheet (one line per unit with its totals, then the totals over all units); then
 * one sheet per unit, named after it (unique, at most 31 characters, none of [ ] : * ? / \). A
 * unit's sheet: its name and registration number, the report's title, the header (frozen, with
 * the two lines above it), the rows and a totals line; below them its facts, its appendix tables
 * (title, header, rows, totals) and its notes. In the `overview` layout (the summaries): one sheet
 * of every unit's rows and the totals over all, then below, per unit that has them, its facts,
 * appendix tables and notes.
 *
 * Cells hold real values: numbers as numbers with a number format of the decimals the report
 * shows; durations as fractions of a day formatted [h]:mm (so Excel adds them up); days, times
 * and date-times as Excel dates holding the local wall-clock time the report shows (Excel has no
 * zones); yes/no and text as the text `formatCell` gives.
 */
import ExcelJS from 'exceljs';
import { formatCell, type ReportLanguage } from '../../../shared/reports/format';
import type { CellValue, ColumnFormat, ReportColumn, ReportModel, ReportUnit } from '../../../shared/schemas/reports';
import { cellValue, columnHeading, FORMAT_WIDTH, type Progress, ReportRenderer } from './common';
import type { ReportOutput } from './output';

const HEADER_ROW = 3;
const SECONDS_PER_DAY = 86_400;

/** Excel number formats per column format; formats not listed are text. */
const NUMBER_FORMATS: Partial<Record<ColumnFormat, string>> = {
  km: '#,##0.0',
  odometer: '#,##0',
  speed: '0',
  count: '#,##0',
  money: '#,##0.00',
  coordinate: '0.00000',
  amount: '#,##0.00',
  mass: '#,##0.0',
  percent: '0.0',
  decimal: '#,##0.0',
  duration: '[h]:mm',
  day: 'yyyy-mm-dd',
  time: 'hh:mm',
  dateTime: 'yyyy-mm-dd hh:mm',
};

const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8ECF2' } };
const THIN: ExcelJS.Border = { style: 'thin', color: { argb: 'FF8A94A3' } };

/**
 * The local wall-clock time of an ISO day or date-time as the Date Excel shows that way: Excel
 * stores no zone and exceljs writes a Date's UTC fields, so the local digits go in as UTC.
 */
export function excelDate(iso: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(iso);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
  return new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
}

/** The value a cell holds for a report value of `format`. */
export function excelValue(value: CellValue, format: ColumnFormat, lang: ReportLanguage): ExcelJS.CellValue {
  if (value === null || value === '') return null;
  if (typeof value === 'number') {
    if (format === 'duration') return value / SECONDS_PER_DAY;
    if (NUMBER_FORMATS[format]) return value;
  }
  if (typeof value === 'string' && (format === 'day' || format === 'time' || format === 'dateTime')) {
    return excelDate(value) ?? value;
  }
  return formatCell(value, format, lang);
}

/** Sheet names: without [ ] : * ? / \, at most 31 characters, unique (Excel compares case-blind). */
export function sheetNamer(): (name: string) => string {
  const used = new Set<string>();
  return (name) => {
    const clean = name.replace(/[[\]:*?/\\]/g, ' ').replace(/\s+/g, ' ').trim().replace(/^'+|'+$/g, '') || '-';
    for (let n = 1; ; n += 1) {
      const suffix = n === 1 ? '' : ` (${n})`;
      const candidate = `${clean.slice(0, 31 - suffix.length).trimEnd()}${suffix}`;
      if (!used.has(candidate.toLowerCase()) && candidate.toLowerCase() !== 'history') {
        used.add(candidate.toLowerCase());
        return candidate;
      }
    }
  };
}

class XlsxReport extends ReportRenderer {
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly sheetName = sheetNamer();

  constructor(model: ReportModel, output: ReportOutput, progress: Progress) {
    super(model, output, progress);
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
    this.workbook.title = model.title;
    this.workbook.subject = model.subtitle;
    this.workbook.created = excelDate(model.generatedAt) ?? new Date();
  }

  private sheet(name: string, columns: readonly { format: ColumnFormat; label: string }[]): ExcelJS.Worksheet {
    const sheet = this.workbook.addWorksheet(this.sheetName(name), { views: [{ state: 'frozen', ySplit: HEADER_ROW }] });
    sheet.columns = columns.map((c) => ({ width: Math.min(60, Math.max(FORMAT_WIDTH[c.format], c.label.length) + 2) }));
    return sheet;
  }

  private titleRows(sheet: ExcelJS.Worksheet, heading: string): void {
    const first = sheet.addRow([heading]);
    first.font = { bold: true, size: 13 };
    first.commit();
    const subtitle = this.model.subtitle ? `${this.model.title} – ${this.model.subtitle}` : this.model.title;
    sheet.addRow([subtitle]).commit();
  }

  private headerRow(sheet: ExcelJS.Worksheet, headings: readonly string[]): void {
    const row = sheet.addRow([...headings]);
    row.eachCell((cell) => {
      cell.font = { bold: true };
      cell.fill = HEADER_FILL;
      cell.border = { bottom: THIN };
      cell.alignment = { vertical: 'top', wrapText: true };
    });
    row.commit();
  }

  /** A row of values under `columns`, each cell with its column's number format. */
  private valuesRow(sheet: ExcelJS.Worksheet, columns: readonly ReportColumn[], values: readonly CellValue[], lead: readonly string[] = []): ExcelJS.Row {
    const row = sheet.addRow([...lead, ...columns.map((c, i) => excelValue(values[i] ?? null, c.format, this.lang))]);
    for (const [i, column] of columns.entries()) {
      const numFmt = NUMBER_FORMATS[column.format];
      if (numFmt) row.getCell(lead.length + i + 1).numFmt = numFmt;
    }
    return row;
  }

  private totalsRow(sheet: ExcelJS.Worksheet, columns: readonly ReportColumn[], totals: Readonly<Record<string, CellValue>>, lead: readonly string[] = []): void {
    const labelAt = columns.findIndex((c) => !c.total);
    const row = this.valuesRow(
      sheet,
      columns,
      columns.map((c) => (c.total ? (totals[c.key] ?? null) : null)),
      lead,
    );
    if (labelAt >= 0 && lead.length === 0) row.getCell(labelAt + 1).value = this.t('ReportTotal');
    row.eachCell({ includeEmpty: true }, (cell) => {
      cell.font = { bold: true };
      cell.border = { top: THIN };
    });
    row.commit();
  }

  private async tableRows(sheet: ExcelJS.Worksheet, columns: readonly ReportColumn[], rows: readonly Readonly<Record<string, unknown>>[]): Promise<void> {
    for (const [index, row] of rows.entries()) {
      this.valuesRow(sheet, columns, columns.map((c) => cellValue(row, c.key))).commit();
      await this.rowDone(index, rows.length);
    }
  }

  private blank(sheet: ExcelJS.Worksheet): void {
    sheet.addRow([]).commit();
  }

  private boldLine(sheet: ExcelJS.Worksheet, text: string): void {
    const row = sheet.addRow([text]);
    row.font = { bold: true };
    row.commit();
  }

  private totalsSheet(): void {
    const { model, t } = this;
    const columns = model.columns.filter((c) => c.total);
    const sheet = this.sheet(t('ReportAllUnits'), [
      { format: 'text', label: t('ReportUnit') },
      { format: 'text', label: t('ReportRegistrationNumber') },
      ...columns,
    ]);
    this.titleRows(sheet, t('ReportAllUnits'));
    this.headerRow(sheet, [t('ReportUnit'), t('ReportRegistrationNumber'), ...columns.map(columnHeading)]);
    for (const unit of model.units) {
      this.valuesRow(sheet, columns, columns.map((c) => unit.totals[c.key] ?? null), [unit.name, unit.registrationNumber ?? '']).commit();
    }
    this.totalsRow(sheet, columns, model.totals, [t('ReportTotal'), '']);
    sheet.commit();
  }

  private async unitSheet(unit: ReportUnit): Promise<void> {
    const { model } = this;
    const sheet = this.sheet(unit.name, model.columns);
    this.titleRows(sheet, unit.registrationNumber ? `${unit.name} · ${unit.registrationNumber}` : unit.name);
    this.headerRow(sheet, model.columns.map(columnHeading));
    await this.tableRows(sheet, model.columns, unit.rows);
    this.totalsRow(sheet, model.columns, unit.totals);
    await this.unitExtras(sheet, unit);
    sheet.commit();
    await this.output.ready();
  }

  /** `overview` layout: one sheet of every unit's rows and the totals over all; below, what units have beside their rows. */
  private async overviewSheet(): Promise<void> {
    const { model } = this;
    const sheet = this.sheet(model.title, model.columns);
    this.titleRows(sheet, model.title);
    this.headerRow(sheet, model.columns.map(columnHeading));
    await this.tableRows(sheet, model.columns, model.units.flatMap((u) => u.rows));
    this.totalsRow(sheet, model.columns, model.totals);
    for (const unit of model.units) {
      if (!unit.facts.length && !unit.tables.length && !unit.notes.length) continue;
      this.blank(sheet);
      this.boldLine(sheet, unit.registrationNumber ? `${unit.name} · ${unit.registrationNumber}` : unit.name);
      await this.unitExtras(sheet, unit);
    }
    sheet.commit();
    await this.output.ready();
  }

  /** A unit's facts, appendix tables and notes, below what is on the sheet. */
  private async unitExtras(sheet: ExcelJS.Worksheet, unit: ReportUnit): Promise<void> {
    const { t } = this;
    if (unit.facts.length) {
      this.blank(sheet);
      this.boldLine(sheet, t('ReportFacts'));
      for (const fact of unit.facts) {
        const row = sheet.addRow([columnHeading(fact), excelValue(fact.value, fact.format, this.lang)]);
        const numFmt = NUMBER_FORMATS[fact.format];
        if (numFmt) row.getCell(2).numFmt = numFmt;
        if (fact.tone) row.getCell(2).font = { bold: true, color: { argb: fact.tone === 'alert' ? 'FFB3261E' : 'FF7A4A00' } };
        row.commit();
      }
    }
    for (const table of unit.tables) {
      this.blank(sheet);
      this.boldLine(sheet, table.title);
      this.headerRow(sheet, table.columns.map(columnHeading));
      await this.tableRows(sheet, table.columns, table.rows);
      if (table.totals) this.totalsRow(sheet, table.columns, table.totals);
    }
    if (unit.notes.length) {
      this.blank(sheet);
      this.boldLine(sheet, t('ReportNotes'));
      for (const note of unit.notes) sheet.addRow([note]).commit();
    }
  }

  async render(): Promise<void> {
    const { model, t } = this;
    if (model.layout === 'overview') await this.overviewSheet();
    else {
      if (model.units.length !== 1) this.totalsSheet();
      for (const unit of model.units) await this.unitSheet(unit);
    }
    if (model.notes.length) {
      const sheet = this.sheet(t('ReportNotes'), [{ format: 'text', label: t('ReportNotes') }]);
      this.titleRows(sheet, t('ReportNotes'));
      this.blank(sheet);
      for (const note of model.notes) sheet.addRow([note]).commit();
      sheet.commit();
    }
    // Resolves once the zip has been written out and `output` has finished.
    await this.workbook.commit();
    this.progress.finish();
  }
}

export async function renderXlsx(model: ReportModel, output: ReportOutput, progress: Progress): Promise<void> {
  await new XlsxReport(model, output, progress).render();
}
