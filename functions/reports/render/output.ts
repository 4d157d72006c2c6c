/**
 * Where a renderer writes: a Writable in front of the caller's stream that passes each chunk on
 * and holds the next one back until the caller's stream has taken the last (its `write` returned
 * true, or it emitted 'drain'). A renderer pipes its library's output here and, between pieces of
 * work, awaits `ready()`: the file is never built up in memory, whatever the pace of the reader.
 */
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

export class ReportOutput extends Writable {
  private failure: Error | null = null;
  private reject: (error: Error) => void = () => undefined;
  /** Rejects when the caller's stream fails: whatever a renderer waits for then, it waits no more. */
  readonly failed = new Promise<never>((_, reject) => {
    this.reject = reject;
  });

  constructor(private readonly target: NodeJS.WritableStream) {
    super({ highWaterMark: 256 * 1024 });
    this.failed.catch(() => undefined);
    target.on('error', (error: Error) => {
      this.failure ??= error;
      this.reject(error);
      this.destroy(error);
    });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.failure) return callback(this.failure);
    if (this.target.write(chunk)) return callback();
    this.target.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.target.end();
    finished(this.target).then(
      () => callback(),
      (error: Error) => callback(error),
    );
  }

  /**
   * Resolves once what was written so far has mostly been taken: lets the libraries' queued work
   * run (a turn of the event loop), then waits while this stream's buffer is full.
   */
  async ready(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.writableNeedDrain && !this.failure) await once(this, 'drain');
    if (this.failure) throw this.failure;
  }

  /** Ends the file; resolves once the caller's stream has taken all of it. */
  async close(): Promise<void> {
    this.end();
    await finished(this);
  }
}
