/**
 * The local stand-in for IoT Core: an aedes broker for trackers over TCP and for browsers over
 * WebSocket (`/mqtt` on the HTTP port), with the same topic permissions a tracker's IoT policy
 * gives it (shared/mqtt-topics.ts), and the rule bridge that turns tracker messages into the IoT
 * rules' output exactly as the rules do (`shared/iot-rules.ts`) and hands it on (the runtime puts
 * it on the ingest stream, infra/local/stream.ts, as the rules' Kinesis action does on AWS).
 *
 * Basic Ingest as IoT Core has it: a tracker may publish to `$aws/rules/<rule name>/<topic>` where
 * it may publish to `<topic>` (its own IMEI's topics), and only that rule gets the message, seeing
 * `<topic>` (shared/mqtt-topics.ts `parseBasicIngestTopic`). The rules are named as the production
 * stack names them (`iotRuleName(EMBEDDED_STACK_NAME, rule)`). A rule name that is not a rule, or
 * a rule that does not listen on the topic, is refused as IoT Core's policy refuses it. Nobody may
 * subscribe to such a topic, so nothing but the rule sees it.
 *
 * The bridge runs in the publish authorization, not as a subscriber: aedes writes a QoS 1 PUBACK
 * as soon as the publish is authorized and only then hands the message to its subscribers
 * (node_modules/aedes/lib/handlers/publish.js), so a subscriber would see messages already
 * acknowledged. Authorization completes only once the rule's action has stored its output (the
 * runtime: on disk, infra/local/ingest-log.ts); a tracker whose message could not be stored is
 * disconnected without the PUBACK and sends it again.
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Aedes, type Client } from 'aedes';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { EMBEDDED_STACK_NAME, iotRuleName, type IotRuleDef, type IotRuleEvent } from '../../shared/iot-rules';
import { parseBasicIngestTopic, trackerMayPublish, trackerMaySubscribe } from '../../shared/mqtt-topics';

/** Decides whether a browser may subscribe to a topic (the live-channel authorizer). */
export type SubscribeAuthorizer = (client: { id: string; username?: string; password?: Buffer }, topic: string) => Promise<boolean>;

export interface LocalBroker {
  broker: Aedes;
  port: number;
  publish(topic: string, payload: string | Buffer, qos: 0 | 1): Promise<void>;
  attachWebSocket(server: HttpServer, path: string): void;
  listening(): boolean;
  stop(): Promise<void>;
}

export interface BrokerOptions {
  port: number;
  /** Address of the TCP listener; default 127.0.0.1 (the WebSocket one is the HTTP server's). */
  host?: string;
  rules: readonly IotRuleDef[];
  /** The stack name the rules' names (and so the Basic Ingest topics) are made of; default EMBEDDED_STACK_NAME. */
  stackName?: string;
  /**
   * What a rule's action does with its output (the runtime: put it on the ingest stream). The
   * message is acknowledged once the promise it returns is resolved.
   */
  onRuleOutput(rule: IotRuleDef, event: IotRuleEvent): void | Promise<void>;
  /** Called when stopping, after the clients are gone and before the broker closes: finish what it acknowledged. */
  drain?(): Promise<void>;
  authorizeLiveSubscribe?: SubscribeAuthorizer;
  /**
   * IoT Core calls the live authorizer again every refresh period while a browser stays connected;
   * so does this broker, for each browser with a granted subscription, every `everyMs` (what it
   * answers does not change the connection here: a refused token is refused at its next subscribe).
   */
  refreshLive?: { everyMs: number; refresh: (client: { id: string; username?: string; password?: Buffer }) => Promise<unknown> };
}

function isBrowser(client: Client | null): boolean {
  return Boolean(client?.req);
}

/** MQTT topic filter matching (`+` one level, `#` the rest). */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length || (f[i] !== '+' && f[i] !== t[i])) return false;
  }
  return f.length === t.length;
}

/**
 * What the rules make of a message: the IoT rules' SQL output, per rule. A plain topic goes to every
 * rule whose filter matches it; a Basic Ingest topic (`$aws/rules/<rule name>/<topic>`) only to
 * the rule of that name, if its filter matches `<topic>`, and the rule sees `<topic>`.
 */
export function ruleOutputs(
  rules: readonly IotRuleDef[],
  topic: string,
  payload: Buffer,
  receivedAt: number,
  stackName: string = EMBEDDED_STACK_NAME,
): Array<{ rule: IotRuleDef; event: IotRuleEvent }> {
  const basic = parseBasicIngestTopic(topic);
  const seen = basic ? basic.topic : topic;
  return rules
    .filter((rule) => (basic ? iotRuleName(stackName, rule) === basic.ruleName : true) && topicMatches(rule.topicFilter, seen))
    .map((rule) => ({ rule, event: { payload: payload.toString('base64'), topic: seen, imei: seen.split('/')[rule.imeiLevel - 1] ?? '', receivedAt } }));
}

export async function startLocalBroker(options: BrokerOptions): Promise<LocalBroker> {
  const credentials = new WeakMap<Client, { username?: string; password?: Buffer }>();
  /** Browsers with a granted live subscription, authorized again every refresh period. */
  const watching = new Set<Client>();
  const broker = await Aedes.createBroker({
    id: 'local',
    authenticate: (client, username, password, done) => {
      credentials.set(client, { username, password });
      done(null, true);
    },
    authorizePublish: (client, packet, done) => {
      // Like a tracker's IoT policy: publish only under its own IMEI, which is its client id.
      if (!client) return done(null);
      // Basic Ingest: the same permission as the topic it carries, and it must name a rule on it.
      const basic = parseBasicIngestTopic(packet.topic);
      if (isBrowser(client) || !trackerMayPublish(client.id, basic ? basic.topic : packet.topic)) {
        return done(new Error('publish not allowed'));
      }
      const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : Buffer.from(packet.payload);
      const matched = ruleOutputs(options.rules, packet.topic, payload, Date.now(), options.stackName);
      if (basic && !matched.length) return done(new Error('publish not allowed: no such rule on this topic'));
      if (!matched.length) return done(null);
      const outputs = matched.map(({ rule, event }) => options.onRuleOutput(rule, event));
      Promise.all(outputs).then(
        () => done(null),
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
    },
    authorizeSubscribe: (client, sub, done) => {
      if (!client) return done(null, sub);
      if (isBrowser(client)) {
        const authorize = options.authorizeLiveSubscribe;
        // A null subscription answers SUBACK 0x80 (refused) and keeps the connection open.
        if (!authorize) return done(null, null);
        const cred = credentials.get(client) ?? {};
        authorize({ id: client.id, ...cred }, sub.topic)
          .then((ok) => {
            if (ok) watching.add(client);
            done(null, ok ? sub : null);
          })
          .catch(() => done(null, null));
        return;
      }
      if (trackerMaySubscribe(client.id, sub.topic)) return done(null, sub);
      done(null, null);
    },
  });

  broker.on('clientDisconnect', (client) => watching.delete(client));
  const refreshLive = options.refreshLive;
  const refreshTimer = refreshLive
    ? setInterval(() => {
        for (const client of watching) {
          if (client.closed) {
            watching.delete(client);
            continue;
          }
          refreshLive.refresh({ id: client.id, ...(credentials.get(client) ?? {}) }).catch(() => undefined);
        }
      }, refreshLive.everyMs)
    : undefined;
  refreshTimer?.unref();

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
          // and MQTT.js stream work in the browser (npm run bench:map). What is written in one turn
          // of the event loop goes as one frame: the write waits for the loop's check phase, and
          // what aedes writes meanwhile (live updates of many units) is buffered by the stream and
          // goes with the next frame. MQTT over WebSocket lets a frame carry several packets
          // (MQTT 3.1.1 section 6), and the browser then handles one message event for them.
          stream._writev = (chunks, callback) => {
            const frame = Buffer.concat(chunks.map(({ chunk }) => chunk as Buffer));
            setImmediate(() => ws.send(frame, callback));
          };
          sockets.add(stream);
          stream.on('close', () => sockets.delete(stream));
          stream.on('error', () => stream.destroy());
          broker.handle(stream as never, req);
        });
      });
    },
    listening: () => tcp.listening && !broker.closed,
    stop: async () => {
      if (refreshTimer) clearInterval(refreshTimer);
      watching.clear();
      for (const s of sockets) s.destroy();
      for (const s of tcpSockets) s.destroy();
      wss.close();
      // Messages the broker acknowledged are handled before it goes, as IoT Core would.
      await options.drain?.();
      await new Promise<void>((done) => broker.close(() => done()));
      await new Promise<void>((done) => tcp.close(() => done()));
    },
  };
}
