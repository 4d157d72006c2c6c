/**
 * Starts the embedded runtime for a test file: the real HTTP server, broker, handlers and the
 * shared DynamoDB Local under a table prefix of its own, seeded with the demo account.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { startEmbeddedRuntime, type EmbeddedRuntime } from '../../infra/local/runtime';

export async function startRuntime(options: { seed?: boolean; brandDomains?: Record<string, number> } = {}): Promise<EmbeddedRuntime> {
  return startEmbeddedRuntime({
    port: 0,
    mqttPort: 0,
    dataDir: null,
    host: '127.0.0.1',
    dynamoEndpoint: inject('dynamoEndpoint'),
    tablePrefix: `t${randomBytes(4).toString('hex')}-`,
    seed: options.seed ?? true,
    brandDomains: options.brandDomains ?? {},
  });
}
