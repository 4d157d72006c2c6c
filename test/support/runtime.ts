/**
 * Starts the embedded runtime for a test file: the real HTTP server, broker, handlers and the
 * shared DynamoDB Local under a table prefix of its own, seeded with the demo account.
 */
import { randomBytes } from 'node:crypto';
import type { QueueDef } from '../../shared/queues';
import { startEmbeddedRuntime, type EmbeddedRuntime } from '../../infra/local/runtime';
import { seedDemo, seedSupport } from '../../infra/local/seed';
import { DEMO_REGISTERED_AT } from './positions';
import { fileDynamo } from './file-dynamo';

export async function startRuntime(options: { seed?: boolean; brandDomains?: Record<string, number>; queues?: readonly QueueDef[] } = {}): Promise<EmbeddedRuntime> {
  const runtime = await startEmbeddedRuntime({
    port: 0,
    mqttPort: 0,
    dataDir: null,
    host: '127.0.0.1',
    dynamo: fileDynamo(),
    tablePrefix: `t${randomBytes(4).toString('hex')}-`,
    // The tests store data at fixed dates, some older than its retention (createTables).
    timeToLive: false,
    // Seeded below, registered at DEMO_REGISTERED_AT rather than now.
    seed: false,
    brandDomains: options.brandDomains ?? {},
    ...(options.queues ? { queues: options.queues } : {}),
    // E2E_WEB_DIR: a web build of one's own (vite build --outDir), so that a test run never swaps web/dist under another.
    ...(process.env['E2E_WEB_DIR'] ? { webDir: process.env['E2E_WEB_DIR'] } : {}),
  });
  if (options.seed === false) return runtime;
  const { seeded } = await seedDemo(DEMO_REGISTERED_AT);
  await seedSupport(DEMO_REGISTERED_AT);
  return { ...runtime, seeded };
}
