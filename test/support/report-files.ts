/**
 * Renders a report into memory for the renderers' tests (functions/reports/render), and reads a
 * PDF's text back page by page.
 */
import { PassThrough } from 'node:stream';
import { extractText, getDocumentProxy } from 'unpdf';
import type { BrandId } from '../../shared/brands';
import type { ReportFormat, ReportModel } from '../../shared/schemas/reports';

type Render = (model: ReportModel, format: ReportFormat, out: NodeJS.WritableStream, options: { brand: BrandId; onProgress?: (fraction: number) => void }) => Promise<void>;

export async function renderToBuffer(render: Render, model: ReportModel, format: ReportFormat, brand: BrandId = 0, onProgress?: (fraction: number) => void): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  await render(model, format, out, onProgress ? { brand, onProgress } : { brand });
  return Buffer.concat(chunks);
}

/** Each page's text, runs of white space as one space. */
export async function pdfPages(pdf: Uint8Array): Promise<string[]> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: false });
  return text.map((page) => page.replace(/\s+/g, ' '));
}
