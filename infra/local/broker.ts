/**
 * The local stand-in for IoT Core: an aedes broker for trackers over TCP and for browsers over
 * WebSocket (`/mqtt` on the HTTP port), with the same topic permissions a tracker's IoT policy
 * gives it, and the rule bridge that hands tracker messages to the ingest handlers exactly as the
 * IoT rules would (`shared/iot-rules.ts`).
 *
 * The bridge delivers like an asynchronous Lambda invocation: a handler that fails is tried again
 * twice, then the rule's error action gets every message it held. A handler that says it takes
 * arrays (`acceptsBatches`, as functions/ingest/handle-telemetry.ts does) gets the messages of a
 * short window at once, so that it can write across them (docs/decisions/0003-ingest-path.md):
 * a batch closes after `windowMs` or at `maxMessages`, at most `maxInFlight` batches run at once,
 * and while they all run, messages gather for the next one (group commit: the busier the store,
 * the larger the batches, without a longer window when it is idle).
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

/** A rule handler that also takes an array of events; the bridge then hands it batches. */
export type BatchRuleHandler = ((events: IotRuleEvent[], context: Context) => Promise<unknown>) & { readonly acceptsBatches: true };

export interface BridgeBatching {
  /** How long the first message of a batch waits for others. */
  windowMs: number;
  maxMessages: number;
  /** Batches of one rule handed over at once. */
  maxInFlight: number;
}

/**
 * Batches run side by side up to 1,000, Lambda's default concurrency per account: a call returns
 * only when its units' states are stored, which under load takes a round of the state writer
 * (functions/ingest/state-writer.ts), and a lower limit would hold every new message behind those
 * waits. Batches that race for one unit are safe: the state moves only forward, in the store and
 * in what the ingest instance publishes. 10,000 is the largest batch Lambda takes from a stream.
 */
export const DEFAULT_BATCHING: BridgeBatching = { windowMs: 10, maxMessages: 10_000, maxInFlight: 1000 };

/** Waits before the second and third try of a failed delivery (Lambda's are a minute and two; ours are for one machine). */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [250, 1000];

function takesBatches(handler: RuleHandler | BatchRuleHandler): handler is BatchRuleHandler {
  return (handler as Partial<BatchRuleHandler>).acceptsBatches === true;
}

/** Decides whether a browser may subscribe to a topic (the live-channel authorizer). */
export type SubscribeAuthorizer = (client: { id: string; username?: string; password?: Buffer }, topic: string) => Promise<boolean>;

export interface LocalBroker {
  broker: Aedes;
  port: number;
  publish(topic: string, payload: string | Buffer, qos: 0 | 1): Promise<void>;
  attachWebSocket(server: HttpServer, path: string): void;
  /** Messages in the rule bridge: queued for a batch, being handled, or waiting for a retry. */
  pending(): number;
  listening(): boolean;
  stop(): Promise<void>;
}

export interface BrokerOptions {
  port: number;
  /** Address of the TCP listener; default 127.0.0.1 (the WebSocket one is the HTTP server's). */
  host?: string;
  rules: ReadonlyArray<{ rule: IotRuleDef; handler: RuleHandler | BatchRuleHandler }>;
  /** For handlers that take batches; defaults to DEFAULT_BATCHING. */
  batching?: Partial<BridgeBatching>;
  retryDelaysMs?: readonly number[];
  /** Where a failed rule action goes (IoT Core's error action), once per message. */
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

  const batching = { ...DEFAULT_BATCHING, ...options.batching };
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  /** Messages inside a delivery (being handled or waiting for a retry). */
  let delivering = 0;
  const deliveries = new Set<Promise<void>>();
  const batchers: Array<{ queued(): number; flush(): void }> = [];

  /** Tries a delivery as Lambda retries an asynchronous invocation, then the error action per message. */
  const deliver = (rule: IotRuleDef, events: IotRuleEvent[], invoke: (context: Context) => Promise<unknown>): Promise<void> => {
    const run = async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          await invoke(options.context(rule.name, randomUUID()));
          return;
        } catch (error) {
          const delay = retryDelays[attempt];
          if (delay === undefined) {
            for (const event of events) {
              await options.onRuleError(rule, event, error).catch((e: unknown) => console.error(`rule ${rule.name}: error action failed`, e));
            }
            return;
          }
          await new Promise((r) => setTimeout(r, delay));
        }
      }
    };
    delivering += events.length;
    const delivery = run().finally(() => {
      delivering -= events.length;
      deliveries.delete(delivery);
    });
    deliveries.add(delivery);
    return delivery;
  };

  const batcher = (rule: IotRuleDef, handler: BatchRuleHandler) => {
    let queue: IotRuleEvent[] = [];
    let running = 0;
    let timer: NodeJS.Timeout | undefined;
    /** The oldest queued message has waited its window. */
    let due = false;
    const pump = () => {
      while (queue.length && running < batching.maxInFlight && (due || queue.length >= batching.maxMessages)) {
        const batch = queue.slice(0, batching.maxMessages);
        queue = queue.slice(batch.length);
        // What is left arrived while the store was busy: it has waited long enough already.
        if (!queue.length) due = false;
        running++;
        void deliver(rule, batch, (context) => handler(batch, context)).finally(() => {
          running--;
          pump();
        });
      }
      if (queue.length && !due && !timer) {
        timer = setTimeout(() => {
          timer = undefined;
          due = true;
          pump();
        }, batching.windowMs);
      }
    };
    const b = {
      add(event: IotRuleEvent) {
        queue.push(event);
        pump();
      },
      queued: () => queue.length,
      flush() {
        clearTimeout(timer);
        timer = undefined;
        due = true;
        pump();
      },
    };
    batchers.push(b);
    return b;
  };

  for (const { rule, handler } of options.rules) {
    const dispatch = takesBatches(handler)
      ? batcher(rule, handler).add
      : (event: IotRuleEvent) => void deliver(rule, [event], (context) => handler(event, context));
    await new Promise<void>((ready) =>
      broker.subscribe(
        rule.topicFilter,
        (packet, cb) => {
          cb();
          if (packet.topic.startsWith('$')) return;
          const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : Buffer.from(packet.payload);
          dispatch({
            payload: payload.toString('base64'),
            topic: packet.topic,
            imei: packet.topic.split('/')[rule.imeiLevel - 1] ?? '',
            receivedAt: Date.now(),
          });
        },
        ready,
      ),
    );
  }

  /** Hands over what is queued and waits for every delivery, retries and error actions included. */
  const drain = async () => {
    for (const b of batchers) b.flush();
    while (deliveries.size) await Promise.all([...deliveries]);
  };

  const tcpSockets = new Set<Socket>();
  const tcp: NetServer = createServer((socket: Socket) => {
    tcpSockets.add(socket);
    socket.once('close', () => tcpSockets.delete(socket));
    broker.handle(socket);
  });
  await new Promise<void>((ready, fail) => {
    tcp.once('error', fail);
    tcp.listen(options.port, options.host ?? '127.0.0.1', () => ready());
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
          // aedes writes a packet in pieces (header, topic, payload) inside one cork(), and the
          // stream's own write sends each piece as a WebSocket frame: five per PUBLISH, each a task
          // and MQTT.js stream work in the browser (npm run bench:map). One frame per uncork.
          stream._writev = (chunks, callback) => ws.send(Buffer.concat(chunks.map(({ chunk }) => chunk as Buffer)), callback);
          sockets.add(stream);
          stream.on('close', () => sockets.delete(stream));
          stream.on('error', () => stream.destroy());
          broker.handle(stream as never, req);
        });
      });
    },
    pending: () => delivering + batchers.reduce((sum, b) => sum + b.queued(), 0),
    listening: () => tcp.listening && !broker.closed,
    stop: async () => {
      for (const s of sockets) s.destroy();
      for (const s of tcpSockets) s.destroy();
      wss.close();
      // Messages the broker acknowledged are handled before it goes, as IoT Core would.
      await drain();
      await new Promise<void>((done) => broker.close(() => done()));
      await new Promise<void>((done) => tcp.close(() => done()));
    },
  };
}
