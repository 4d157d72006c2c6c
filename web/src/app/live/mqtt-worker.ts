/**
 * The live channel's connection in a worker of its own (one per connection): MQTT.js reads the
 * WebSocket's frames, and each message is parsed and checked against the schema here, off the
 * page's main thread. At 5,000 messages a second (bench:map at 50,000 units) that work took the
 * page's main thread tasks of 40 to 80 ms when a frame brought hundreds of messages at once. The
 * page gets the messages checked, in one batch per BATCH_MS.
 */
import type { LiveMessage } from '../../../../shared/schemas/live';
import type { LiveConnection } from '../../../../shared/schemas/tracking';
import type { LiveLink } from './live-controller';
import { openMqttLink, parseLiveMessage } from './mqtt-link';

export type ToLiveWorker = { type: 'open'; connection: LiveConnection } | { type: 'close' };
export type FromLiveWorker = { type: 'online' } | { type: 'closed' } | { type: 'messages'; messages: LiveMessage[] };

/** Messages reach the page at most this often, however many arrive: ten batches a second. */
export const BATCH_MS = 100;

interface WorkerScope {
  postMessage(message: FromLiveWorker): void;
  onmessage: ((event: MessageEvent<ToLiveWorker>) => void) | null;
  close(): void;
}
const scope = globalThis as unknown as WorkerScope;

let link: LiveLink | null = null;
let batch: LiveMessage[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

function flush(): void {
  clearTimeout(timer);
  timer = undefined;
  if (!batch.length) return;
  const messages = batch;
  batch = [];
  scope.postMessage({ type: 'messages', messages });
}

scope.onmessage = ({ data }) => {
  if (data.type === 'open' && !link) {
    link = openMqttLink(data.connection, {
      online: () => scope.postMessage({ type: 'online' }),
      message(payload) {
        const message = parseLiveMessage(payload);
        if (!message) return;
        batch.push(message);
        timer ??= setTimeout(flush, BATCH_MS);
      },
      closed() {
        // What arrived before the connection closed is still delivered, in order.
        flush();
        scope.postMessage({ type: 'closed' });
      },
    });
  } else if (data.type === 'close') {
    link?.close();
    flush();
    scope.close();
  }
};
