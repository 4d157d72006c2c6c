/**
 * The CSV of a report: UTF-8 with a byte order mark (so Excel reads å, ä, ö), CRLF line ends;
 * Swedish and Norwegian: ';' between fields and a decimal comma, English: ',' and a point.
 * Numbers carry no thousands separator (`formatCell` with `plain`).
 *
 * A CSV is one table, so the layout is (docs/decisions/0035-report-exports.md):
 * 1. the main table: a header line (unit, registration number, the report's columns), every
 *    unit's rows, each unit followed by its totals line ("Total" in the first column without a
 *    total), and with more than one unit a last line with the totals over all units. In the
 *    `overview` layout (the summaries), whose rows name their unit themselves: the report's
 *    columns alone, every row, and one totals line over all units;
 * 2. after a blank line, the facts: unit, registration number, fact, value (with its unit);
 * 3. per appendix (a unit table key, such as a trip log's changes), after a blank line: its title,
 *    its own header (unit, registration number, its columns) and the rows of every unit that has
 *    it, with totals lines when it has totals;
 * 4. after a blank line, the notes: unit, registration number, note (the report's own notes with
 *    an empty unit).
 * A text cell that a spreadsheet would take for a formula (starting with =, +, -, @) gets a
 * leading apostrophe.
 */
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { stringify, type Stringifier } from 'csv-stringify';
import { formatCell } from '../../../shared/reports/format';
import type { CellValue, ReportColumn, ReportModel, ReportUnit } from '../../../shared/schemas/reports';
import { cellValue, columnHeading, type Progress, ReportRenderer } from './common';
import type { ReportOutput } from './output';


function safeText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

class CsvReport extends ReportRenderer {
  private readonly csv: Stringifier = stringify({ bom: true, delimiter: this.lang === 'en' ? ',' : ';', record_delimiter: '\r\n' });

  private async write(record: readonly string[]): Promise<void> {
    if (!this.csv.write(record)) await once(this.csv, 'drain');
  }

  private cell(value: CellValue, column: Pick<ReportColumn, 'format'>): string {
    const text = formatCell(value, column.format, this.lang, { plain: true });
    return column.format === 'text' ? safeText(text) : text;
  }

  private who(unit: Pick<ReportUnit, 'name' | 'registrationNumber'>): string[] {
    return [safeText(unit.name), safeText(unit.registrationNumber ?? '')];
  }

  private totalsLine(columns: readonly ReportColumn[], totals: Readonly<Record<string, CellValue>>): string[] {
    const labelAt = columns.findIndex((c) => !c.total);
    return columns.map((c, i) => (c.total ? this.cell(totals[c.key] ?? null, c) : i === labelAt ? this.t('ReportTotal') : ''));
  }

  /** Rows under `columns`, led by their unit's name and registration number unless `unit` is null. */
  private async rows(unit: ReportUnit | null, columns: readonly ReportColumn[], rows: readonly Readonly<Record<string, unknown>>[]): Promise<void> {
    const who = unit ? this.who(unit) : [];
    for (const [index, row] of rows.entries()) {
      await this.write([...who, ...columns.map((c) => this.cell(cellValue(row, c.key), c))]);
      await this.rowDone(index, rows.length);
    }
  }

  async render(): Promise<void> {
    const { model, t } = this;
    this.csv.pipe(this.output, { end: false });
    const heading = (columns: readonly ReportColumn[]) => [t('ReportUnit'), t('ReportRegistrationNumber'), ...columns.map(columnHeading)];

    if (model.layout === 'overview') {
      // The rows carry their unit already: the report's columns alone, and the totals over all.
      await this.write(model.columns.map(columnHeading));
      for (const unit of model.units) await this.rows(null, model.columns, unit.rows);
      await this.write(this.totalsLine(model.columns, model.totals));
    } else {
      await this.write(heading(model.columns));
      for (const unit of model.units) {
        await this.rows(unit, model.columns, unit.rows);
        await this.write([...this.who(unit), ...this.totalsLine(model.columns, unit.totals)]);
      }
      if (model.units.length > 1) await this.write([t('ReportAllUnits'), '', ...this.totalsLine(model.columns, model.totals)]);
    }

    if (model.units.some((u) => u.facts.length)) {
      await this.write([]);
      await this.write([t('ReportUnit'), t('ReportRegistrationNumber'), t('ReportFacts'), t('ReportValue')]);
      for (const unit of model.units) {
        for (const fact of unit.facts) {
          const value = this.cell(fact.value, fact);
          await this.write([...this.who(unit), safeText(columnHeading(fact)), value]);
        }
      }
    }

    // Appendices by key, in the order they first appear.
    const appendixKeys = [...new Set(model.units.flatMap((u) => u.tables.map((table) => table.key)))];
    for (const key of appendixKeys) {
      const first = model.units.flatMap((u) => u.tables).find((table) => table.key === key);
      if (!first) continue;
      await this.write([]);
      await this.write([safeText(first.title)]);
      await this.write(heading(first.columns));
      for (const unit of model.units) {
        for (const table of unit.tables.filter((tb) => tb.key === key)) {
          await this.rows(unit, table.columns, table.rows);
          if (table.totals) await this.write([...this.who(unit), ...this.totalsLine(table.columns, table.totals)]);
        }
      }
    }

    const notes = [...model.units.flatMap((u) => u.notes.map((note) => [...this.who(u), safeText(note)])), ...model.notes.map((note) => ['', '', safeText(note)])];
    if (notes.length) {
      await this.write([]);
      await this.write([t('ReportUnit'), t('ReportRegistrationNumber'), t('ReportNotes')]);
      for (const line of notes) await this.write(line);
    }

    this.csv.end();
    await finished(this.csv);
    this.progress.finish();
  }
}

export async function renderCsv(model: ReportModel, output: ReportOutput, progress: Progress): Promise<void> {
  await new CsvReport(model, output, progress).render();
  await output.close();
}
