/**
 * A browser's live channel in an API test: the connection GET /live/connection hands a caller,
 * subscribed to every topic it names, with what arrives on it.
 */
import mqtt from 'mqtt';
import type { LiveConnection } from '../../shared/schemas/tracking';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { callAs, type Caller } from './api-caller';

export interface LiveMessage {
  type?: string;
  imei?: string;
  granted?: boolean;
}

export interface LiveListener {
  client: mqtt.MqttClient;
  /** Every message received, in order. */
  messages: LiveMessage[];
  /**
   * Resolves once everything the runtime was to send this connection has arrived: the tracker
   * messages acknowledged so far are handled (their live publishes handed to the broker), and a
   * subscription made again is acknowledged, which the broker writes after what it wrote before.
   * A test awaits it before asserting that a message did not come.
   */
  caughtUp(): Promise<void>;
}

export async function listenLive(rt: EmbeddedRuntime, who: Caller): Promise<LiveListener> {
  const c = (await callAs<LiveConnection>(rt.url, 'GET', '/api/v1/user/live/connection', who)).body.data as LiveConnection;
  const client = await mqtt.connectAsync(c.url, { clientId: c.clientId, username: c.username, password: c.password, reconnectPeriod: 0, connectTimeout: 5000 });
  const messages: LiveMessage[] = [];
  client.on('message', (_topic, payload) => messages.push(JSON.parse(payload.toString()) as LiveMessage));
  for (const topic of c.topics) await client.subscribeAsync(topic, { qos: 0 });
  const [first] = c.topics;
  return {
    client,
    messages,
    async caughtUp() {
      await rt.settled();
      if (first) await client.subscribeAsync(first, { qos: 0 });
    },
  };
}
