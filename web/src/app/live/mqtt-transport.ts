/**
 * The live channel's transport: each connection is a worker (mqtt-worker.ts) that runs MQTT.js and
 * parses and checks the messages, handing the page batches of them. Loaded lazily by the live
 * controller, so neither MQTT.js nor the message schema reach a page that does not use the channel.
 */
import { routes } from '../../../../shared/routes';
import { liveConnectionSchema, type LiveConnection } from '../../../../shared/schemas/tracking';
import { apiRequest } from '../api-client';
import type { LinkEvents, LiveLink, LiveTransport } from './live-controller';
import { parseLiveMessage } from './mqtt-link';
import type { FromLiveWorker, ToLiveWorker } from './mqtt-worker';

export { openMqttLink, parseLiveMessage } from './mqtt-link';

export function openWorkerLink(connection: LiveConnection, events: LinkEvents): LiveLink {
  const worker = new Worker(new URL('./mqtt-worker.ts', import.meta.url), { type: 'module' });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    worker.onmessage = null;
    worker.postMessage({ type: 'close' } satisfies ToLiveWorker);
    // The worker ends itself once the connection is closed; this bounds it if it cannot.
    setTimeout(() => worker.terminate(), 5_000);
  };
  worker.onmessage = ({ data }: MessageEvent<FromLiveWorker>) => {
    if (data.type === 'online') events.online();
    else if (data.type === 'messages') events.messages(data.messages);
    else {
      close();
      events.closed();
    }
  };
  worker.onerror = () => {
    close();
    events.closed();
  };
  worker.postMessage({ type: 'open', connection } satisfies ToLiveWorker);
  return { close };
}

export const mqttTransport: LiveTransport = {
  fetchConnection: () => apiRequest(routes.getLiveConnection.method, routes.getLiveConnection.path, { schema: liveConnectionSchema }),
  open: openWorkerLink,
  parse: parseLiveMessage,
};
