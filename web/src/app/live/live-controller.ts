/**
 * The browser's one live channel (docs/api.md Live channel): MQTT over WebSocket to the broker the server
 * names in GET /live/connection. Pages share it: it opens for the first user and closes after the
 * last, so no page pays for it unless it uses it. It reconnects by itself with backoff, fetching
 * fresh credentials for every attempt (the previous token may have expired), and reconnects when
 * the session's token changes, so the broker never holds a connection on a token about to expire.
 *
 * The MQTT client and the message schema sit behind `LiveTransport`, loaded lazily: neither MQTT.js
 * nor zod reach a page before it asks for the channel.
 */
import type { LiveMessage } from '../../../../shared/schemas/live';
import type { LiveConnection } from '../../../../shared/schemas/tracking';
import { reconnectDelayMs } from './backoff';

export type LiveStatus = 'connecting' | 'online' | 'offline';
export type LiveListener = (message: LiveMessage) => void;

/** What the transport reports about one connection. */
export interface LinkEvents {
  /** Connected, and the topics subscribed. */
  online(): void;
  message(payload: Uint8Array): void;
  /** The connection is gone, for whatever reason; it will not come back by itself. */
  closed(): void;
}

export interface LiveLink {
  close(): void;
}

export interface LiveTransport {
  fetchConnection(): Promise<LiveConnection>;
  /** Opens one connection with these credentials and subscribes its topics once connected. */
  open(connection: LiveConnection, events: LinkEvents): LiveLink;
  /** A live message, or null for anything that is not one. */
  parse(payload: Uint8Array): LiveMessage | null;
}

export interface LiveControllerOptions {
  loadTransport(): Promise<LiveTransport>;
  /** The session's access token now, and a way to hear that it changed. */
  token(): string | null;
  onTokenChange(listener: () => void): () => void;
  /** Wait before reconnection attempt n (0-based). */
  reconnectDelay?: (attempt: number) => number;
  /**
   * How long the channel stays open after its last user left: a page that hands over to another
   * page using it (or React's development double mount) does not reconnect.
   */
  lingerMs?: number;
}

export interface LiveController {
  /** Keeps the channel open until the returned release is called. */
  acquire(): () => void;
  /** Adds a listener of every message and keeps the channel open until the returned release is called. */
  listen(listener: LiveListener): () => void;
  getStatus(): LiveStatus;
  subscribeStatus(listener: () => void): () => void;
}

interface Session {
  link: LiveLink;
  token: string | null;
}

/** How long live messages are handled in one go before the page gets the main thread back. */
const SLICE_MS = 8;

/** Runs a function in a task of its own soon (a MessageChannel message: no 4 ms clamp as with nested timers). */
function createTaskScheduler(): (run: () => void) => void {
  if (typeof MessageChannel === 'undefined') return (run) => void setTimeout(run, 0);
  const channel = new MessageChannel();
  const pending: Array<() => void> = [];
  channel.port1.onmessage = () => pending.shift()?.();
  return (run) => {
    pending.push(run);
    channel.port2.postMessage(null);
  };
}

export function createLiveController(options: LiveControllerOptions): LiveController {
  const reconnectDelay = options.reconnectDelay ?? ((attempt: number) => reconnectDelayMs(attempt));
  const lingerMs = options.lingerMs ?? 1_000;
  const listeners = new Set<LiveListener>();
  const statusListeners = new Set<() => void>();
  let status: LiveStatus = 'connecting';
  let users = 0;
  // Every start and stop begins a new run; callbacks of an older run find it changed and do nothing.
  let run = 0;
  let active = false;
  let session: Session | null = null;
  // A connection with renewed credentials that takes over from `session` once it is subscribed.
  let replacement: Session | null = null;
  // The run whose connection attempt is under way (fetching credentials), if any.
  let connectingRun: number | null = null;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let lingerTimer: ReturnType<typeof setTimeout> | undefined;
  let stopWatchingToken: (() => void) | null = null;
  let transport: Promise<LiveTransport> | null = null;

  function setStatus(next: LiveStatus): void {
    if (status === next) return;
    status = next;
    for (const listener of [...statusListeners]) listener();
  }

  function scheduleRetry(current: number): void {
    setStatus('offline');
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      if (current === run) void connect(current);
    }, reconnectDelay(attempt++));
  }

  /**
   * Messages are handled at once while the current slice of the main thread lasts (SLICE_MS), the
   * rest queued and handled in later tasks, slice by slice: the broker may send hundreds of messages
   * in one WebSocket frame, and handling them all in the task that received it would block the page
   * for as long (5,000 messages a second made tasks of 150 ms in bench:map).
   */
  const queue: Array<{ loaded: LiveTransport; payload: Uint8Array; current: number }> = [];
  let sliceStart: number | null = null;
  const nextTask = createTaskScheduler();

  function endSlice(): void {
    sliceStart = null;
    if (!queue.length) return;
    sliceStart = performance.now();
    nextTask(endSlice);
    while (queue.length && performance.now() - sliceStart < SLICE_MS) {
      const next = queue.shift() as (typeof queue)[number];
      if (next.current === run) deliver(next.loaded, next.payload);
    }
  }

  function dispatch(loaded: LiveTransport, payload: Uint8Array): void {
    if (sliceStart === null) {
      sliceStart = performance.now();
      nextTask(endSlice);
    }
    if (queue.length || performance.now() - sliceStart >= SLICE_MS) queue.push({ loaded, payload, current: run });
    else deliver(loaded, payload);
  }

  function deliver(loaded: LiveTransport, payload: Uint8Array): void {
    const message = loaded.parse(payload);
    if (!message) return;
    for (const listener of [...listeners]) {
      // One failing listener must not starve the others.
      try {
        listener(message);
      } catch (error) {
        console.error('live listener failed', error);
      }
    }
  }

  async function connect(current: number): Promise<void> {
    if (connectingRun === current) return;
    connectingRun = current;
    const token = options.token();
    let loaded: LiveTransport;
    let connection: LiveConnection;
    try {
      transport ??= options.loadTransport();
      loaded = await transport.catch((error: unknown) => {
        // A chunk that failed to load (network) is fetched again on the next attempt.
        transport = null;
        throw error;
      });
      connection = await loaded.fetchConnection();
    } catch {
      if (current !== run) return;
      connectingRun = null;
      // A failed renewal leaves the connection that still works alone.
      if (!session) scheduleRetry(current);
      return;
    }
    if (current !== run) return;
    connectingRun = null;

    const entry: Session = { link: { close: () => {} }, token };
    entry.link = loaded.open(connection, {
      online: () => {
        if (current !== run) return;
        if (entry === replacement) {
          // The renewed connection is subscribed: only now does the old one go.
          const old = session;
          session = entry;
          replacement = null;
          old?.link.close();
        }
        if (entry !== session) return;
        attempt = 0;
        setStatus('online');
      },
      message: (payload) => {
        if (current === run && entry === session) dispatch(loaded, payload);
      },
      closed: () => {
        if (current !== run) return;
        if (entry === replacement) {
          replacement = null;
          return;
        }
        if (entry !== session) return;
        session = replacement;
        replacement = null;
        if (session) setStatus('offline');
        else scheduleRetry(current);
      },
    });
    if (session) replacement = entry;
    else session = entry;
    // The token may have been renewed while the credentials were on their way.
    if (options.token() !== token) tokenChanged();
  }

  /**
   * The session got a new token: open a connection with fresh credentials and close the old one
   * once the new one is subscribed, so that no message falls between the two and no drop shows.
   */
  function tokenChanged(): void {
    const token = options.token();
    if (!active || !token || connectingRun === run) return;
    const newest = replacement ?? session;
    if (newest?.token === token) return;
    if (replacement) {
      replacement.link.close();
      replacement = null;
    }
    clearTimeout(retryTimer);
    void connect(run);
  }

  function start(): void {
    run++;
    active = true;
    attempt = 0;
    setStatus('connecting');
    stopWatchingToken = options.onTokenChange(tokenChanged);
    void connect(run);
  }

  function stop(): void {
    run++;
    active = false;
    connectingRun = null;
    clearTimeout(retryTimer);
    stopWatchingToken?.();
    stopWatchingToken = null;
    session?.link.close();
    replacement?.link.close();
    session = null;
    replacement = null;
  }

  function acquire(): () => void {
    users++;
    if (lingerTimer !== undefined) {
      clearTimeout(lingerTimer);
      lingerTimer = undefined;
    } else if (users === 1 && !active) {
      start();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      users--;
      if (users > 0) return;
      lingerTimer = setTimeout(() => {
        lingerTimer = undefined;
        if (users === 0) stop();
      }, lingerMs);
    };
  }

  return {
    acquire,
    listen(listener) {
      listeners.add(listener);
      const release = acquire();
      return () => {
        listeners.delete(listener);
        release();
      };
    },
    getStatus: () => status,
    subscribeStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
  };
}
