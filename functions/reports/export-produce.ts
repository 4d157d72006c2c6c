/**
 * The producing step of a report export (functions/reports/export-run.ts hands it the job): the
 * report's model built as the job's owner, then rendered into the stream in the job's format and
 * brand. Building and rendering each report their progress; each is half of the job's.
 */
import { brandById } from '../../shared/brands';
import { buildReport } from './build';
import type { ExportProducer } from './export-run';
import { renderReport } from './render/index';

/** An export runs as a job of up to 15 minutes: it waits up to 3 for the addresses of trips reported for the first time. */
export const EXPORT_ADDRESS_BUDGET_MS = 180_000;

export const produceExport: ExportProducer = async (job, out, progress) => {
  const model = await buildReport({
    request: job.request,
    caller: job.caller,
    lang: job.lang,
    timeZone: job.timeZone,
    now: job.now,
    onProgress: (fraction) => progress(fraction / 2),
    addressBudgetMs: EXPORT_ADDRESS_BUDGET_MS,
  });
  await renderReport(model, job.format, out, { brand: brandById(job.brand).id, onProgress: (fraction) => progress(0.5 + fraction / 2) });
  return { rows: model.units.reduce((sum, unit) => sum + unit.rows.length, 0) };
};
