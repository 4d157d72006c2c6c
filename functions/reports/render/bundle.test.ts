/**
 * The renderer works inside a Lambda bundle: built by infra/bundling/bundle.ts with the stack's
 * esbuild options and run from a folder outside the repository, with no node_modules and no
 * web/public to read the font and the logos from, and no pdfkit standard font metrics.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleAll } from '../../../infra/bundling/bundle';
import type { ReportModel } from '../../../shared/schemas/reports';
import { twoUnitTripLog } from '../../../test/support/report-models';
import { pdfPages } from '../../../test/support/report-files';

const root = mkdtempSync(join(tmpdir(), 'report-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A handler importing the PDF renderer alone (the XLSX and CSV renderers read no files).
const entry = `
import { PassThrough } from 'node:stream';
import { Progress } from './functions/reports/render/common';
import { ReportOutput } from './functions/reports/render/output';
import { renderPdf } from './functions/reports/render/pdf';

export async function handler(event) {
  const out = new PassThrough();
  const chunks = [];
  out.on('data', (chunk) => chunks.push(chunk));
  await renderPdf(event.model, event.brand, new ReportOutput(out), new Progress(event.model, undefined));
  return Buffer.concat(chunks).toString('base64');
}
`;

type Handler = (event: { model: ReportModel; brand: number }) => Promise<string>;

describe('report renderer in a Lambda bundle', () => {
  it('renders a PDF with the embedded font and brand mark', async () => {
    const dir = bundleAll(root, [{ name: 'report-render', entry, handlers: [{ source: 'functions/reports/render/pdf.ts', purpose: 'the report PDF renderer' }] }]).get('report-render') as string;
    const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
    expect(code).not.toContain('@fontsource/noto-sans/files');
    const { handler } = (await import(pathToFileURL(join(dir, 'index.mjs')).href)) as { handler: Handler };

    const model = twoUnitTripLog('no');
    const pdf = Buffer.from(await handler({ model, brand: 6 }), 'base64');
    const text = (await pdfPages(pdf)).join(' ');
    expect(text).toContain('TripBook');
    expect(text).toContain('Skåpbil Östra Göinge');
    expect(text).toContain('Ærlig Bjørn');
    expect(text).toContain('1 317,6');
    expect(text).toContain('Side 1 av 2');
  }, 60_000);
});
