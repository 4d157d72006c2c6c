import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ReportFormat, ReportModel } from '../../../shared/schemas/reports';
import { longTripLog } from '../../../test/support/report-models';
import { renderReport } from './index';

/** A reader slower than the renderer: takes a chunk a millisecond, and asks to wait past 1 KB. */
function slowReader(options: { failAfter?: number } = {}) {
  const seen = { bytes: 0, chunks: 0, largestChunk: 0, mostBuffered: 0, ended: false };
  const stream = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, callback) {
      seen.bytes += chunk.length;
      seen.chunks += 1;
      seen.largestChunk = Math.max(seen.largestChunk, chunk.length);
      if (options.failAfter !== undefined && seen.bytes > options.failAfter) return callback(new Error('disk full'));
      setTimeout(callback, 1);
    },
    final(callback) {
      seen.ended = true;
      callback();
    },
  });
  const write = stream.write.bind(stream);
  stream.write = ((...args: Parameters<typeof write>) => {
    const result = write(...args);
    seen.mostBuffered = Math.max(seen.mostBuffered, stream.writableLength);
    return result;
  }) as typeof stream.write;
  return { stream, seen };
}

async function renderedSize(model: ReportModel, format: ReportFormat): Promise<number> {
  const { stream, seen } = slowReader();
  await renderReport(model, format, stream, { brand: 0 });
  return seen.bytes;
}

describe('renderReport', () => {
  // Trips per format: enough for a file many times the reader's limit and its largest chunk.
  it.each<[ReportFormat, number]>([
    ['pdf', 400],
    ['xlsx', 2000],
    ['csv', 1200],
  ])('writes %s no faster than a slow reader takes it, reports progress and ends the stream', async (format, trips) => {
    const { stream, seen } = slowReader();
    const progress: number[] = [];
    await renderReport(longTripLog('no', trips), format, stream, { brand: 5, onProgress: (f) => progress.push(f) });
    expect(seen.ended).toBe(true);
    expect(seen.chunks).toBeGreaterThan(5);
    // Never more waiting in the reader than its limit and the chunk that crossed it.
    expect(seen.mostBuffered).toBeLessThanOrEqual(1024 + seen.largestChunk);
    expect(seen.bytes).toBeGreaterThan(4 * (1024 + seen.largestChunk));
    expect(progress.at(-1)).toBe(1);
    expect(progress.length).toBeGreaterThan(2);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(progress.every((f) => f > 0 && f <= 1)).toBe(true);
  });

  // Early, and late: after the last rows, while the file is being closed.
  it.each<[ReportFormat, number]>([
    ['pdf', 2000],
    ['pdf', 0.95],
    ['xlsx', 2000],
    ['xlsx', 0.95],
    ['csv', 2000],
    ['csv', 0.95],
  ])('fails when the stream fails (%s after %s)', async (format, after) => {
    const model = longTripLog('en', 150);
    const size = after < 1 ? (await renderedSize(model, format)) * after : after;
    const { stream } = slowReader({ failAfter: size });
    await expect(renderReport(model, format, stream, { brand: 0 })).rejects.toThrow('disk full');
  });
});
