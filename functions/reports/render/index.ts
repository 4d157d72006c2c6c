/**
 * A report as a file: the one model (shared/schemas/reports.ts) rendered to PDF, XLSX or CSV,
 * written into a stream as it is made (docs/decisions/0035-report-exports.md). Values become text
 * only through `formatCell`, so every format shows the figures the screen shows.
 */
import type { BrandId } from '../../../shared/brands';
import type { ReportFormat, ReportModel } from '../../../shared/schemas/reports';
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

export const REPORT_CONTENT_TYPES: Readonly<Record<ReportFormat, string>> = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

/**
 * Writes the whole file into `out`, waiting for `out` whenever it asks to (its `write` returns
 * false), then ends `out`; resolves once `out` has finished, rejects when it fails.
 */
export async function renderReport(model: ReportModel, format: ReportFormat, out: NodeJS.WritableStream, options: RenderOptions): Promise<void> {
  const output = new ReportOutput(out);
  const progress = new Progress(model, options.onProgress);
  const work = format === 'pdf' ? renderPdf(model, options.brand, output, progress) : format === 'xlsx' ? renderXlsx(model, output, progress) : renderCsv(model, output, progress);
  await Promise.race([work, output.failed]);
}
