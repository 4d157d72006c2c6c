/**
 * The work queues of shared/queues.ts in a test process, wired to their real consumers as the
 * embedded runtime wires them (infra/local/queues.ts) and registered with the handlers' `queues`
 * port. Failed messages come back without the visibility wait, so that a test waits only on
 * `drained()`. Stopped after the file.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll } from 'vitest';
import type { Context } from 'aws-lambda';
import { REPO_ROOT } from '../../infra/bundling/bundle';
import { startLocalQueues, type LocalQueues, type QueueConsumer } from '../../infra/local/queues';
import { queueList, type QueueName } from '../../shared/queues';

export async function useWorkQueues(names: readonly QueueName[] = queueList.map((q) => q.name)): Promise<LocalQueues> {
  const defs = queueList.filter((q) => names.includes(q.name)).map((q) => ({ ...q, visibilityTimeoutSeconds: 0 }));
  const queues = await startLocalQueues(
    defs,
    async (file) => ((await import(pathToFileURL(path.join(REPO_ROOT, file)).href)) as { handler: QueueConsumer }).handler,
    { context: () => ({}) as Context },
  );
  afterAll(() => queues.stop());
  return queues;
}
