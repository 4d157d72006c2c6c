/**
 * One MQTT connection of the live channel (MQTT.js: its browser build speaks MQTT over WebSocket)
 * and the shared message schema. Runs in the live channel's worker (mqtt-worker.ts), and in tests.
 */
import mqtt from 'mqtt';
import { liveMessageSchema, type LiveMessage } from '../../../../shared/schemas/live';
import type { LiveConnection } from '../../../../shared/schemas/tracking';
import type { LinkEvents, LiveLink } from './live-controller';

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

export function openMqttLink(connection: LiveConnection, events: Pick<LinkEvents, 'online' | 'closed'> & { message(payload: Uint8Array): void }): LiveLink {
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
