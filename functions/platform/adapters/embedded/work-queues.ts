/**
 * The seam between the handlers and the embedded runtime's work queues (infra/local/queues.ts).
 * The runtime runs in the same process as the handlers and registers its send function at boot,
 * after it has wired every queue of shared/queues.ts to its consumer; this module imports no
 * consumer. Nothing registered means the queues are not up, which is an error, never a silent drop.
 */
import type { QueueName } from '../../../../shared/queues';
import type { SendOptions, WorkQueues } from '../../ports';

export type LocalSend = (queue: QueueName, message: unknown, options?: SendOptions) => Promise<void>;

let registered: LocalSend | undefined;

export function registerLocalQueues(send: LocalSend): void {
  registered = send;
}

/** For the runtime's shutdown and for tests. */
export function unregisterLocalQueues(): void {
  registered = undefined;
}

export function createLocalWorkQueues(): WorkQueues {
  return {
    async send(queue, message, options) {
      const send = registered;
      if (!send) throw new Error(`the embedded work queues are not running (infra/local/queues.ts): no consumer for ${queue}`);
      await send(queue, message, options);
    },
  };
}
