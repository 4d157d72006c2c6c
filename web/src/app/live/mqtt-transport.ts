/**
 * The live channel's transport: MQTT.js (its browser build speaks MQTT over WebSocket) and the
 * shared message schema. Loaded lazily by the live controller, so MQTT.js and zod reach the browser
 * only with a page that uses the channel.
 */
import mqtt from 'mqtt';
import { routes } from '../../../../shared/routes';
import { liveMessageSchema, type LiveMessage } from '../../../../shared/schemas/live';
import { liveConnectionSchema, type LiveConnection } from '../../../../shared/schemas/tracking';
import { apiRequest } from '../api-client';
import type { LinkEvents, LiveLink, LiveTransport } from './live-controller';

/** A dead connection (a broker gone without closing the socket) is noticed within 1.5 keep-alives. */
const KEEPALIVE_SECONDS = 30;
const CONNECT_TIMEOUT_MS = 10_000;

const decoder = new TextDecoder();

export function parseLiveMessage(payload: Uint8Array): LiveMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(decoder.decode(payload));
  } catch {
    return null;
  }
  const parsed = liveMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

export function openMqttLink(connection: LiveConnection, events: LinkEvents): LiveLink {
  const client = mqtt.connect(connection.url, {
    clientId: connection.clientId,
    username: connection.username,
    password: connection.password,
    clean: true,
    keepalive: KEEPALIVE_SECONDS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // The controller reconnects, with backoff and fresh credentials; MQTT.js would reuse stale ones.
    reconnectPeriod: 0,
  });
  client.on('connect', () => {
    if (!connection.topics.length) return events.online();
    // Online once subscribed (a refused topic only means no messages for it): a renewed connection
    // replaces the old one only when it already hears what the old one heard.
    client.subscribe(connection.topics, { qos: 0 }, () => events.online());
  });
  client.on('message', (_topic, payload) => events.message(payload));
  client.on('close', () => events.closed());
  // Errors end in 'close', which is what the controller acts on; without a listener MQTT.js would throw.
  client.on('error', () => {});
  return { close: () => void client.end(true) };
}

export const mqttTransport: LiveTransport = {
  fetchConnection: () => apiRequest(routes.getLiveConnection.method, routes.getLiveConnection.path, { schema: liveConnectionSchema }),
  open: openMqttLink,
  parse: parseLiveMessage,
};
