/**
 * A report as a file: the one model (shared/schemas/reports.ts) rendered to PDF, XLSX or CSV,
 * written into a stream as it is made (docs/decisions/0035-report-exports.md). Values become text
 * only through `formatCell`, so every format shows the figures the screen shows.
 */
import type { BrandId } from '../../../shared/brands';
import type { ExportFormat, ReportModel } from '../../../shared/schemas/reports';
import { Progress } from './common';
import { renderCsv } from './csv';
import { ReportOutput } from './output';
import { renderPdf } from './pdf';
import { renderXlsx } from './xlsx';

export interface RenderOptions {
  /** The brand (subsite) whose name, colour and mark the PDF carries. */
  brand: BrandId;
  /** Called with the share of rows done, 0 to 1, in whole percents, ending with 1. */
  onProgress?: (fraction: number) => void;
}

export const REPORT_CONTENT_TYPES: Readonly<Record<ExportFormat, string>> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
};

/** The model itself, a unit at a time, for the screen of a report too large to answer at once. */
async function renderJson(model: ReportModel, output: ReportOutput, progress: Progress): Promise<void> {
  const { units, ...rest } = model;
  const head = JSON.stringify({ ...rest, units: [] });
  const at = head.lastIndexOf('"units":[]');
  output.write(`${head.slice(0, at)}"units":[`);
  for (const [i, unit] of units.entries()) {
    output.write(`${i ? ',' : ''}${JSON.stringify(unit)}`);
    progress.add(unit.rows.length + unit.tables.reduce((n, t) => n + t.rows.length, 0));
    await output.ready();
  }
  output.write(`]${head.slice(at + '"units":[]'.length)}`);
  await output.close();
  progress.finish();
}

/**
 * Writes the whole file into `out`, waiting for `out` whenever it asks to (its `write` returns
 * false), then ends `out`; resolves once `out` has finished, rejects when it fails.
 */
export async function renderReport(model: ReportModel, format: ExportFormat, out: NodeJS.WritableStream, options: RenderOptions): Promise<void> {
  const output = new ReportOutput(out);
  const progress = new Progress(model, options.onProgress);
  const work =
    format === 'pdf'
      ? renderPdf(model, options.brand, output, progress)
      : format === 'xlsx'
        ? renderXlsx(model, output, progress)
        : format === 'csv'
          ? renderCsv(model, output, progress)
          : renderJson(model, output, progress);
  await Promise.race([work, output.failed]);
}
