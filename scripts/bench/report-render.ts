/**
 * `npm run bench:report-render`: the report files at a year's scale. Renders a trip-log-shaped
 * model of one unit with N trips (11 columns, Swedish) to PDF, XLSX and CSV, each into a file in
 * a temporary folder, and prints the time and the process's peak resident memory (and, for
 * comparison, its memory before rendering, with the model built).
 *
 * Each format runs in a process of its own, on the renderer bundled as a Lambda function is
 * (infra/bundling/bundle.ts): plain Node, no TypeScript loader, so the memory is the function's.
 *
 *   npm run bench:report-render -- [--trips 3000]
 *
 * Targets (docs/decisions/0035-report-exports.md): PDF within 5 s and 256 MB, XLSX within 3 s.
 * Exit code 1 when a target is missed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleAll } from '../../infra/bundling/bundle';
import { reportFormats, type ReportFormat } from '../../shared/schemas/reports';

const TARGET: Partial<Record<ReportFormat, { ms: number; mb?: number }>> = { pdf: { ms: 5000, mb: 256 }, xlsx: { ms: 3000 } };
const { values: flags } = parseArgs({ options: { trips: { type: 'string', default: '3000' } } });
const TRIPS = Number(flags.trips);

interface Result {
  ms: number;
  peakMb: number;
  beforeMb: number;
  bytes: number;
}

/** The bundle's entry: renders one format of the bench model into a file, answers what it took. */
const entry = `
import { createWriteStream, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { renderReport } from './functions/reports/render/index';
import { longTripLog } from './test/support/report-models';

export async function handler({ format, file, trips }) {
  const model = longTripLog('sv', trips);
  const beforeMb = Math.round(process.memoryUsage().rss / 1048576);
  const start = performance.now();
  await renderReport(model, format, createWriteStream(file), { brand: 0 });
  const ms = Math.round(performance.now() - start);
  return { ms, peakMb: Math.round(process.resourceUsage().maxRSS / 1024), beforeMb, bytes: statSync(file).size };
}
`;

const dir = mkdtempSync(join(tmpdir(), 'bench-report-'));
let missed = false;
try {
  const bundle = join(bundleAll(join(dir, 'bundles'), [{ name: 'report-bench', entry, handlers: [] }]).get('report-bench') as string, 'index.mjs');
  console.log(`Report files: one unit, ${TRIPS} trips, 11 columns`);
  for (const format of reportFormats) {
    const file = join(dir, `report.${format}`);
    const run = `const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
process.stdout.write(JSON.stringify(await handler(${JSON.stringify({ format, file, trips: TRIPS })})));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', run], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`${format} failed:\n${child.stderr}`);
    const r = JSON.parse(child.stdout) as Result;
    const target = TARGET[format];
    const ok = !target || (r.ms <= target.ms && (target.mb === undefined || r.peakMb <= target.mb));
    if (!ok) missed = true;
    const goal = target ? ` (target ${target.ms} ms${target.mb ? `, ${target.mb} MB` : ''}: ${ok ? 'met' : 'MISSED'})` : '';
    console.log(`${format.padEnd(4)} ${String(r.ms).padStart(5)} ms, peak RSS ${r.peakMb} MB (${r.beforeMb} MB before rendering), ${Math.round(r.bytes / 1024)} KB${goal}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = missed ? 1 : 0;
