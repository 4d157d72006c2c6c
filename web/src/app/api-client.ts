/**
 * The one way the browser calls the API (spec section 7, docs/api.md): bearer token from the session,
 * `Accept: application/json`, the browser's `TimeZone`, `X-Request-Type: web`; answers unwrapped
 * from the success envelope; failures become an ApiError whose message is already translated.
 */
import { ensureMessageKeys, isKnownMessage, translateMessage } from '../i18n/i18n';
import { getSessionUser, startSession } from './session';

export type Translate = (key: string, vars?: Record<string, string | number>) => string;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status, 0 for a network failure. */
    readonly status: number,
    /** The translated text to show. */
    message: string,
    /** The message key behind it (the server's, or one chosen here). */
    readonly key: string,
    /** 422 field errors as the server sent them (keys, untranslated). */
    readonly fieldErrors: Readonly<Record<string, readonly string[]>> = {},
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

/** How long the browser's time zone is taken as known: a laptop carried across a border is noticed within it. */
const TIME_ZONE_KEPT_MS = 60_000;
let knownZone: { zone: string; at: number } | null = null;

/**
 * The browser's time zone, sent with every request. Building an Intl.DateTimeFormat to ask costs
 * a few milliseconds on a slow machine, and the map's pages are dozens of requests in a second.
 */
export function browserTimeZone(now: number = Date.now()): string {
  if (knownZone && now - knownZone.at >= 0 && now - knownZone.at < TIME_ZONE_KEPT_MS) return knownZone.zone;
  let zone = 'Europe/Stockholm';
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || zone;
  } catch {
    // The default above.
  }
  knownZone = { zone, at: now };
  return zone;
}

export function requestHeaders(token: string | null | undefined, timeZone: string, withBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    TimeZone: timeZone,
    'X-Request-Type': 'web',
  };
  if (token) headers['Authorization'] = `Bearer ${token}`;
  if (withBody) headers['Content-Type'] = 'application/json';
  return headers;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const STATUS_KEYS: Readonly<Record<number, string>> = {
  401: 'Unauthenticated.',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  422: 'ValidationFailed',
  429: 'TooManyAttempts',
};

/** The message keys a failed answer carries: its `message`, `errors.msg`, and each field's keys. */
export function answerKeys(body: unknown): string[] {
  if (!isRecord(body)) return [];
  const { errors, message } = body;
  const keys = typeof message === 'string' ? [message] : [];
  if (typeof errors === 'string') keys.push(errors);
  else if (isRecord(errors)) {
    if (typeof errors['msg'] === 'string') keys.push(errors['msg']);
    for (const list of Object.values(errors)) {
      if (Array.isArray(list)) keys.push(...list.filter((k): k is string => typeof k === 'string'));
    }
  }
  return keys;
}

/**
 * The key and translated text of a failed answer. 422 `errors` objects show the first message of
 * each field, joined; `{ msg, count }` (login) gets the count substituted; a key string is
 * translated; anything else (an HTML error page, API Gateway's own `{ message: 'Not Found' }`, a
 * key we have no text for) falls back on the status.
 */
export function describeError(
  status: number,
  body: unknown,
  translate: Translate,
  isKnown: (key: string) => boolean = () => true,
): { key: string; text: string; fieldErrors: Record<string, string[]> } {
  const fieldErrors: Record<string, string[]> = {};
  if (isRecord(body)) {
    const { errors, message } = body;
    if (isRecord(errors) && typeof errors['msg'] === 'string') {
      const count = errors['count'];
      // `{ msg, lockedBy }` (TrackerIsLocked) names the locker in its text.
      const lockedBy = errors['lockedBy'];
      const vars: Record<string, string | number> | undefined = typeof count === 'number' ? { count } : typeof lockedBy === 'string' ? { lockedBy } : undefined;
      return { key: errors['msg'], text: translate(errors['msg'], vars), fieldErrors };
    }
    if (isRecord(errors)) {
      const firsts: string[] = [];
      for (const [field, list] of Object.entries(errors)) {
        const keys = Array.isArray(list) ? list.filter((k): k is string => typeof k === 'string') : typeof list === 'string' ? [list] : [];
        if (keys.length === 0) continue;
        fieldErrors[field] = keys;
        firsts.push(translate(keys[0] as string));
      }
      if (firsts.length > 0) {
        return { key: typeof message === 'string' ? message : 'ValidationFailed', text: [...new Set(firsts)].join(' '), fieldErrors };
      }
    }
    if (typeof errors === 'string' && isKnown(errors)) return { key: errors, text: translate(errors), fieldErrors };
    if (typeof message === 'string' && isKnown(message)) return { key: message, text: translate(message), fieldErrors };
  }
  const key = STATUS_KEYS[status] ?? 'SomethingWentWrong';
  return { key, text: translate(key), fieldErrors };
}

interface Handlers {
  /** A response said 'Unauthenticated.': clear the session and go to `/`. */
  onUnauthenticated: () => void;
  /** A 401 on a safe-home path: back to the map (spec section 7). */
  onSafeHomeUnauthorized: () => void;
}

let handlers: Handlers = { onUnauthenticated: () => {}, onSafeHomeUnauthorized: () => {} };

/** Wired once by the router, which owns navigation. */
export function configureApiClient(next: Handlers): void {
  handlers = next;
}

/** Any zod schema, classic or mini: both have safeParse. */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: { issues: readonly unknown[] } };
}

export interface RequestOptions<T> {
  body?: unknown;
  /** Validates `data` of the success envelope. */
  schema?: ResponseSchema<T>;
  signal?: AbortSignal;
  /** Receives the message key a success answer carries beside its data (e.g. PositionsTruncated). */
  onMessage?: (key: string) => void;
  /** Further request headers (an Idempotency-Key). */
  headers?: Readonly<Record<string, string>>;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** docs/api.md: a new access token for the refresh token, while the login session lasts. */
export const REFRESH_PATH = '/api/v1/token/refresh';

let refreshing: Promise<boolean> | null = null;

/**
 * Exchanges the session's refresh token for a new access token and stores it. Single-flight:
 * every call that meets a 401 while a refresh is running waits for that one refresh.
 */
function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    const user = getSessionUser();
    if (!user?.refresh_token || !user.Username) return false;
    try {
      const response = await fetch(REFRESH_PATH, {
        method: 'POST',
        headers: requestHeaders(null, browserTimeZone(), true),
        body: JSON.stringify({ refresh_token: user.refresh_token, username: user.Username }),
        credentials: 'same-origin',
      });
      const body = await readJson(response);
      const data = isRecord(body) ? body['data'] : null;
      const token = response.ok && isRecord(data) && typeof data['token'] === 'string' && data['token'] ? data['token'] : null;
      // A log-out while the refresh was under way wins: nothing is stored for a session that ended.
      const current = getSessionUser();
      if (!token || current?.ID !== user.ID) return false;
      // The server may rotate the refresh token; the old one then stops working.
      const rotated = isRecord(data) && typeof data['refresh_token'] === 'string' && data['refresh_token'] ? data['refresh_token'] : user.refresh_token;
      await startSession({ ...current, token, refresh_token: rotated });
      return true;
    } catch {
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function send(method: HttpMethod, path: string, token: string | undefined, options: RequestOptions<unknown>): Promise<Response> {
  const withBody = options.body !== undefined;
  try {
    return await fetch(path, {
      method,
      headers: { ...requestHeaders(token, browserTimeZone(), withBody), ...options.headers },
      body: withBody ? JSON.stringify(options.body) : null,
      signal: options.signal ?? null,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, translateMessage('NetworkError'), 'NetworkError');
  }
}

/**
 * Sends a request with the session's token. A 401 on a call made with a token first renews the
 * token once (the access token lives shorter than the login session) and retries.
 */
export async function sendAuthorised(method: HttpMethod, path: string, options: RequestOptions<unknown>): Promise<Response> {
  const token = getSessionUser()?.token;
  let response = await send(method, path, token, options);
  let sentWith = token;
  if (response.status === 401 && token) {
    const current = getSessionUser()?.token;
    // Another call may have renewed the token while this one was on its way.
    const renewed = current !== undefined && current !== token ? true : await refreshSession();
    const next = getSessionUser()?.token;
    if (renewed && next) {
      response = await send(method, path, next, options);
      sentWith = next;
    }
  }
  tokenSent.set(response, sentWith);
  return response;
}

/** The token each answer was asked with, so a late 401 of an ended session cannot end the next one. */
const tokenSent = new WeakMap<Response, string | undefined>();

/**
 * The ApiError of a failed answer; an 'Unauthenticated.' answer (the token renewed first where it
 * could be) ends the session it was asked in. An answer that arrives after a log-out and a new login
 * (a map request still on its way, say) leaves the new session alone.
 */
export async function failure(response: Response, path: string, body: unknown): Promise<ApiError> {
  const current = getSessionUser()?.token;
  if (isRecord(body) && body['message'] === 'Unauthenticated.' && current !== undefined && current === tokenSent.get(response)) {
    handlers.onUnauthenticated();
  } else if (response.status === 401 && path.includes('safe-home')) {
    handlers.onSafeHomeUnauthorized();
  }
  // A key of a feature this page did not load (TrackerIsLocked on the trip log) gets its text first.
  await ensureMessageKeys(answerKeys(body));
  const { key, text, fieldErrors } = describeError(response.status, body, translateMessage, isKnownMessage);
  return new ApiError(response.status, text, key, fieldErrors, body);
}

/** Calls the API and returns `data` of the success envelope (see sendAuthorised for the token). */
export async function apiRequest<T = unknown>(method: HttpMethod, path: string, options: RequestOptions<T> = {}): Promise<T> {
  const response = await sendAuthorised(method, path, options);
  const body = await readJson(response);
  if (response.ok) {
    if (isRecord(body) && typeof body['message'] === 'string') options.onMessage?.(body['message']);
    const data = isRecord(body) && 'data' in body ? body['data'] : body;
    if (!options.schema) return data as T;
    const parsed = options.schema.safeParse(data);
    if (parsed.success) return parsed.data;
    console.warn(`Unexpected answer from ${method} ${path}`, parsed.error.issues);
    throw new ApiError(response.status, translateMessage('SomethingWentWrong'), 'SomethingWentWrong', {}, body);
  }
  throw await failure(response, path, body);
}

/**
 * The text to show for any error, translated in the current language at render time (so a
 * message already on screen follows a language switch).
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.body !== null) return describeError(error.status, error.body, translateMessage, isKnownMessage).text;
    return translateMessage(error.key);
  }
  return translateMessage('SomethingWentWrong');
}
