/**
 * Waiting in black-box tests for what the runtime does asynchronously (ingest, acks, alerts): reads
 * again until `done` holds, else fails naming what it waited for and the last value read.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  { timeoutMs = 15_000, everyMs = 100 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
