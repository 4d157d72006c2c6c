import type { AwsEnv } from '../../env';
import type { Ports } from '../../ports';

export function createAwsPorts(env: AwsEnv): Ports {
  throw new Error(`AWS adapters are not wired yet (${env.AWS_REGION})`);
}
