import type { EmbeddedEnv } from '../../env';
import type { Ports } from '../../ports';

export function createEmbeddedPorts(env: EmbeddedEnv): Ports {
  throw new Error(`embedded adapters are not wired yet (${env.DYNAMODB_ENDPOINT})`);
}
