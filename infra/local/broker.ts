/**
 * The local stand-in for IoT Core: an aedes broker for trackers over TCP and for browsers over
 * WebSocket (`/mqtt` on the HTTP port), with the same topic permissions a tracker's IoT policy
 * gives it, and the rule bridge that hands tracker messages to the ingest handlers exactly as the
 * IoT rules would (`shared/iot-rules.ts`).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Aedes, type Client } from 'aedes';
import type { Context } from 'aws-lambda';
import { WebSocketServer, createWebSocketStream } from 'ws';
import type { IotRuleDef, IotRuleEvent } from '../../shared/iot-rules';

export type RuleHandler = (event: IotRuleEvent, context: Context) => Promise<unknown>;

/** Decides whether a browser may subscribe to a topic (the live-channel authorizer). */
export type SubscribeAuthorizer = (client: { id: string; username?: string; password?: Buffer }, topic: string) => Promise<boolean>;

export interface LocalBroker {
  broker: Aedes;
  port: number;
  publish(topic: string, payload: string | Buffer, qos: 0 | 1): Promise<void>;
  attachWebSocket(server: HttpServer, path: string): void;
  /** Messages in flight through the rule bridge (for a clean stop). */
  pending(): number;
  listening(): boolean;
  stop(): Promise<void>;
}

export interface BrokerOptions {
  port: number;
  host?: string;
  rules: ReadonlyArray<{ rule: IotRuleDef; handler: RuleHandler }>;
  /** Where a failed rule action goes (IoT Core's error action). */
  onRuleError(rule: IotRuleDef, event: IotRuleEvent, error: unknown): Promise<void>;
  context(ruleName: string, requestId: string): Context;
  authorizeLiveSubscribe?: SubscribeAuthorizer;
}

/** The IMEI level of a tracker topic, or null when the topic is not a tracker's. */
function trackerOf(topic: string): string | null {
  const parts = topic.split('/');
  if (parts.length === 3 && parts[0] === 'trackers') return parts[1] ?? null;
  if (parts.length === 2 && (parts[1] === 'data' || parts[1] === 'commands')) return parts[0] ?? null;
  return null;
}

const TRACKER_PUBLISH = /^(trackers\/[^/]+\/(telemetry|ack)|[^/]+\/data)$/;
const TRACKER_SUBSCRIBE = /^(trackers\/[^/]+\/commands|[^/]+\/commands)$/;

function isBrowser(client: Client | null): boolean {
  return Boolean(client?.req);
}

export async function startLocalBroker(options: BrokerOptions): Promise<LocalBroker> {
  const credentials = new WeakMap<Client, { username?: string; password?: Buffer }>();
  const broker = await Aedes.createBroker({
    id: 'local',
    authenticate: (client, username, password, done) => {
      credentials.set(client, { username, password });
      done(null, true);
    },
    authorizePublish: (client, packet, done) => {
      // Like a tracker's IoT policy: publish only under its own IMEI, which is its client id.
      if (!client) return done(null);
      if (isBrowser(client) || !TRACKER_PUBLISH.test(packet.topic) || trackerOf(packet.topic) !== client.id) {
        return done(new Error('publish not allowed'));
      }
      done(null);
    },
    authorizeSubscribe: (client, sub, done) => {
      if (!client) return done(null, sub);
      if (isBrowser(client)) {
        const authorize = options.authorizeLiveSubscribe;
        // A null subscription answers SUBACK 0x80 (refused) and keeps the connection open.
        if (!authorize) return done(null, null);
        const cred = credentials.get(client) ?? {};
        authorize({ id: client.id, ...cred }, sub.topic)
          .then((ok) => done(null, ok ? sub : null))
          .catch(() => done(null, null));
        return;
      }
      if (TRACKER_SUBSCRIBE.test(sub.topic) && trackerOf(sub.topic) === client.id) return done(null, sub);
      done(null, null);
    },
  });

  let inFlight = 0;
  for (const { rule, handler } of options.rules) {
    await new Promise<void>((ready) =>
      broker.subscribe(
        rule.topicFilter,
        (packet, cb) => {
          cb();
          if (packet.topic.startsWith('$')) return;
          const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : Buffer.from(packet.payload);
          const event: IotRuleEvent = {
            payload: payload.toString('base64'),
            topic: packet.topic,
            imei: packet.topic.split('/')[rule.imeiLevel - 1] ?? '',
            receivedAt: Date.now(),
          };
          inFlight++;
          handler(event, options.context(rule.name, randomUUID()))
            .catch((error: unknown) => options.onRuleError(rule, event, error))
            .catch((error: unknown) => console.error(`rule ${rule.name}: error action failed`, error))
            .finally(() => inFlight--);
        },
        ready,
      ),
    );
  }

  const tcpSockets = new Set<Socket>();
  const tcp: NetServer = createServer((socket: Socket) => {
    tcpSockets.add(socket);
    socket.once('close', () => tcpSockets.delete(socket));
    broker.handle(socket);
  });
  await new Promise<void>((ready, fail) => {
    tcp.once('error', fail);
    tcp.listen(options.port, options.host ?? '0.0.0.0', () => ready());
  });
  const port = (tcp.address() as { port: number }).port;

  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<Duplex>();

  return {
    broker,
    port,
    publish: (topic, payload, qos) =>
      new Promise((done, fail) =>
        broker.publish(
          { cmd: 'publish', topic, payload: typeof payload === 'string' ? Buffer.from(payload) : payload, qos, retain: false, dup: false },
          (error) => (error ? fail(error) : done()),
        ),
      ),
    attachWebSocket(server, path) {
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
        if (pathname !== path) return socket.destroy();
        wss.handleUpgrade(req, socket, head, (ws) => {
          const stream = createWebSocketStream(ws);
          sockets.add(stream);
          stream.on('close', () => sockets.delete(stream));
          stream.on('error', () => stream.destroy());
          broker.handle(stream as never, req);
        });
      });
    },
    pending: () => inFlight,
    listening: () => tcp.listening && !broker.closed,
    stop: async () => {
      for (const s of sockets) s.destroy();
      for (const s of tcpSockets) s.destroy();
      wss.close();
      await new Promise<void>((done) => broker.close(() => done()));
      await new Promise<void>((done) => tcp.close(() => done()));
    },
  };
}
