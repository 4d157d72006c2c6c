/**
 * Report exports end to end for the API tests: a report exported through its job and downloaded
 * through the portal link, and the check that the PDF, the XLSX and the CSV show every total of
 * the model the screen shows.
 */
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { formatCell } from '../../shared/reports/format';
import type { ReportFormat, ReportModel } from '../../shared/schemas/reports';
import { callAs, type Caller } from './api-caller';
import { eventually } from './eventually';
import { apiFetch } from './http';
import { pdfPages } from './report-files';

interface Job {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  url?: string;
}

/** Exports the report, waits for its job and downloads the file through the portal link. */
export async function exportedReport(baseUrl: string, who: Caller, kind: string, params: Record<string, string>, format: ReportFormat): Promise<Buffer> {
  const call = <T>(method: string, path: string, body?: unknown) => callAs<T>(baseUrl, method, path, who, body);
  const posted = await call<{ job: Job }>('POST', '/api/v1/user/reports/exports', { kind, ...params, format });
  expect(posted.status).toBe(202);
  const id = posted.body.data?.job.id as string;
  const done = await eventually(
    () => call<{ job: Job }>('GET', `/api/v1/user/reports/exports/${id}`),
    (r) => r.body.data?.job.status === 'done' || r.body.data?.job.status === 'failed',
    `export ${kind} ${format}`,
    { timeoutMs: 60_000 },
  );
  expect(done.body.data?.job).toMatchObject({ status: 'done', progress: 1 });
  const link = await apiFetch(`${baseUrl}${done.body.data?.job.url}`, { headers: { authorization: `Bearer ${who.token}` }, redirect: 'manual' });
  expect(link.status).toBe(302);
  const file = await apiFetch(new URL(link.headers.get('location') as string, baseUrl));
  expect(file.status).toBe(200);
  return Buffer.from(await file.arrayBuffer());
}

/** The model's totals with a column: the figures every output must show alike. */
export function totalsOf(model: ReportModel): { format: ReportModel['columns'][number]['format']; value: number }[] {
  const sets = model.layout === 'overview' ? [model.totals] : [...model.units.map((u) => u.totals), ...(model.units.length > 1 ? [model.totals] : [])];
  return sets.flatMap((totals) => model.columns.filter((c) => c.total && typeof totals[c.key] === 'number').map((c) => ({ format: c.format, value: totals[c.key] as number })));
}

/** Exports the report as PDF, XLSX and CSV and checks each shows the model's title and every total. */
export async function expectTotalsInExports(baseUrl: string, who: Caller, kind: string, params: Record<string, string>, model: ReportModel): Promise<void> {
  const totals = totalsOf(model);
  const [pdf, xlsx, csv] = await Promise.all([
    exportedReport(baseUrl, who, kind, params, 'pdf'),
    exportedReport(baseUrl, who, kind, params, 'xlsx'),
    exportedReport(baseUrl, who, kind, params, 'csv'),
  ]);
  const pdfText = (await pdfPages(pdf)).join(' ');
  expect(pdfText).toContain(model.title);
  const csvText = csv.toString('utf8');
  expect(csvText.charCodeAt(0)).toBe(0xfeff);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(xlsx as unknown as ArrayBuffer);
  const numbers = new Set<number>();
  // A duration is a fraction of a day formatted [h]:mm, which ExcelJS reads back as a date from Excel's day zero.
  const EXCEL_EPOCH = Date.UTC(1899, 11, 30);
  for (const sheet of workbook.worksheets) {
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        const value = cell.value instanceof Date ? (cell.value.getTime() - EXCEL_EPOCH) / 86_400_000 : cell.value;
        if (typeof value === 'number') numbers.add(Math.round(value * 1e6) / 1e6);
      }),
    );
  }
  for (const { format, value } of totals) {
    expect(pdfText, `PDF total ${value}`).toContain(formatCell(value, format, 'en'));
    expect(csvText, `CSV total ${value}`).toContain(formatCell(value, format, 'en', { plain: true }));
    const excel = format === 'duration' ? value / 86_400 : value;
    expect(numbers.has(Math.round(excel * 1e6) / 1e6), `XLSX total ${value}`).toBe(true);
  }
}
