/**
 * Picks the adapters once per cold start from the environment. Handlers call `getPorts()` and never
 * ask which runtime they are in.
 */
import { createAwsPorts } from './adapters/aws/index';
import { createEmbeddedPorts } from './adapters/embedded/index';
import { getEnv } from './env';
import type { Ports } from './ports';

let ports: Ports | undefined;

export function getPorts(): Ports {
  if (!ports) {
    const env = getEnv();
    ports = env.RUNTIME === 'aws' ? createAwsPorts(env) : createEmbeddedPorts(env);
  }
  return ports;
}

/** Tests replace single ports (a settable clock, a recording mailer) without touching the rest. */
export function overridePorts(partial: Partial<Ports>): void {
  ports = { ...getPorts(), ...partial };
}

export function resetPorts(): void {
  ports = undefined;
}
