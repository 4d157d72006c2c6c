/**
 * The middy stack every HTTP handler shares: on AWS the origin secret (403 for a request that did
 * not come through CloudFront), header normalisation, JSON body parsing, auth from the bearer
 * token (a login's access token, or an API key on a route with an `apiKeyScope`, whose calls are
 * rate-limited per key and logged: functions/platform/api-key-auth.ts) with the route's access guard, account feature (shared/features.ts) and the user's feature
 * profile (shared/feature-profiles.ts), the route's body size cap (413), zod validation of
 * body, query and path into the 422 shape of docs/api.md, the TimeZone header, the Idempotency-Key
 * of the routes shared/idempotency.ts lists (applied once per key, idempotency.ts), structured
 * request logs, and one error mapper that never leaks a stack trace.
 */
import middy, { type MiddlewareObj } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { featureRequirements, meetsFeature } from '../../shared/features';
import { IDEMPOTENCY_HEADER, idempotentOperations } from '../../shared/idempotency';
import type { RouteDef } from '../../shared/routes';
import { isValidTimeZone } from '../../shared/schemas/common';
import { profileAllows, profileFeatureOf } from '../../shared/feature-profiles';
import { organisationMessageKeys } from '../../shared/schemas/organisation-messages';
// Fills the slot through which the shared schemas check phone numbers (shared/validators/phone-rule.ts).
import '../../shared/validators/phone';
import { apiKeyMessageKeys } from '../../shared/schemas/api-keys';
import { isApiKey } from './api-key-format';
import { apiKeyAuthContext, countApiKeyCall, recordApiKeyCall, resolveApiKey, type ApiKeyPrincipal } from './api-key-auth';
import { accountFeatures, bearerToken, featureProfileFeatures, resolveAuth, type AuthContext } from './auth-context';
import { assertFromOrigin, clientAddress } from './client-address';
import { getPorts } from './container';
import { DetailedError, DomainError, ForbiddenError, TooManyRequestsError, UnauthenticatedError, ValidationError, type FieldErrors } from './errors';
import { logger } from './logger';
import type { Ports } from './ports';

export const DEFAULT_TIME_ZONE = 'Europe/Stockholm';

type Infer<S> = NonNullable<S> extends z.ZodType ? z.output<NonNullable<S>> : undefined;
type AuthOf<R extends RouteDef> = R['access'] extends 'public' ? AuthContext | null : AuthContext;

export interface RequestContext<R extends RouteDef> {
  body: Infer<R['body']>;
  query: Infer<R['query']>;
  params: Infer<R['params']>;
  auth: AuthOf<R>;
  /** IANA zone from the TimeZone header (default Europe/Stockholm). */
  timeZone: string;
  ports: Ports;
  event: APIGatewayProxyEventV2;
}

/** A reply with a status other than 200, a message key beside the data, or cookies to set. */
export class HttpReply<T> {
  constructor(
    readonly status: number,
    readonly data: T,
    readonly message?: string,
    /** Set-Cookie values (API Gateway payload 2.0 `cookies`). */
    readonly cookies?: readonly string[],
  ) {}
}
export const created = <T>(data: T, message?: string) => new HttpReply(201, data, message);
export const accepted = <T>(data: T) => new HttpReply(202, data);

/** A 302 to `location` without a body (a portal link handing the browser a short-lived file URL). */
export class Redirect {
  constructor(readonly location: string) {}
}

/**
 * What a route's `data` may be: the input type of its response schema, i.e. what the schema
 * accepts on the wire (the browser parses it into the output type). A route without one: anything.
 */
export type ResponseData<R extends RouteDef> = NonNullable<R['response']> extends z.ZodType ? z.input<NonNullable<R['response']>> : unknown;
type Handler<R extends RouteDef> = (ctx: RequestContext<R>) => Promise<ResponseData<R> | HttpReply<ResponseData<R>> | Redirect>;
type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

interface Internal {
  body: unknown;
  auth: AuthContext | null;
  /** The API key of the call, once it resolved: the call goes into its call log whatever the answer. */
  apiKey?: ApiKeyPrincipal;
  timeZone: string;
  parsed: { body: unknown; query: unknown; params: unknown };
}
type Req = middy.Request<Event, Result, Error, Context, { ctx: Internal }>;
const contexts = new WeakMap<Event, Internal>();

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Result {
  return { statusCode: status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** Zod issues to `{ field: [key] }`. Schemas carry message keys; zod's own texts get generic keys. */
export function fieldErrorsOf(error: z.ZodError, prefix?: string): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join('.') : (prefix ?? 'body');
    const key = messageKeyOf(issue);
    const list = (out[field] ??= []);
    if (!list.includes(key)) list.push(key);
  }
  return out;
}

const KEY_SHAPE = /^[A-Za-z][A-Za-z0-9&_.]*$/;
function messageKeyOf(issue: z.core.$ZodIssue): string {
  if (KEY_SHAPE.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      // zod reports the input only when asked (`reportInput`), its text always names it.
      return ('input' in issue ? issue.input == null : /received (undefined|null)/.test(issue.message)) ? 'FieldRequired' : 'InvalidType';
    case 'too_small':
      return 'TooShort';
    case 'too_big':
      return 'TooLong';
    case 'invalid_format':
      return 'InvalidFormat';
    case 'invalid_value':
      return 'InvalidValue';
    case 'unrecognized_keys':
      return 'UnknownField';
    default:
      return 'InvalidValue';
  }
}

/** The request body's size in bytes, as it arrived. */
function bodyBytes(event: Event): number {
  if (!event.body) return 0;
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').length : Buffer.byteLength(event.body, 'utf8');
}

function parseBody(event: Event): unknown {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  const type = event.headers['content-type'] ?? '';
  if (type && !/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    throw new ValidationError({ body: ['UnsupportedContentType'] });
  }
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new ValidationError({ body: ['InvalidJson'] });
  }
}

function validate<S extends z.ZodType | undefined>(schema: S, input: unknown, part: string): unknown {
  if (!schema) return undefined;
  let result: z.ZodSafeParseResult<unknown>;
  try {
    // No body at all is an empty object; a body of JSON null is null, which a body schema refuses.
    result = schema.safeParse(input === undefined && part === 'body' ? {} : input, { reportInput: true });
  } catch (error) {
    // A schema's own code failed on this input (a refinement computing with a value its field
    // rejected): the input is still what is wrong, so it is answered as invalid, and the schema's
    // fault is logged to be fixed.
    logger.error('Schema failed on its input', { part, error: error as Error });
    throw new ValidationError({ [part]: ['InvalidValue'] });
  }
  if (!result.success) throw new ValidationError(fieldErrorsOf(result.error, part));
  return result.data;
}

/**
 * Path parameters name things, so they are text without control characters. API Gateway hands
 * them over decoded, and so does the embedded server, which turns an escape that is not UTF-8
 * into U+FFFD (infra/local/api-event.ts `decodePathParameter`): such a value names nothing either.
 */
export function namesNothing(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f || code === 0xfffd) return true;
  }
  return false;
}
function checkPathParameters(params: Record<string, string | undefined>): void {
  const errors: FieldErrors = {};
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && namesNothing(value)) errors[name] = ['InvalidValue'];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

export function errorResponse(error: unknown): Result {
  if (error instanceof UnauthenticatedError) return json(401, { message: 'Unauthenticated.' });
  if (error instanceof ValidationError) {
    return json(422, { success: false, message: error.key, errors: error.fieldErrors });
  }
  if (error instanceof TooManyRequestsError) {
    return json(429, { success: false, message: error.key, errors: error.key }, { 'retry-after': String(error.retryAfterSeconds) });
  }
  if (error instanceof DetailedError) return json(error.status, { success: false, message: error.key, errors: error.errors });
  if (error instanceof DomainError) return json(error.status, { success: false, message: error.key, errors: error.key });
  return json(500, { success: false, message: 'SomethingWentWrong', errors: 'SomethingWentWrong' });
}

function contextMiddleware(route: RouteDef): MiddlewareObj<Event, Result, Error, Context, { ctx: Internal }> {
  return {
    before: async (request: Req) => {
      const { event } = request;
      const headers = event.headers ?? {};
      event.headers = headers;
      // First of all: nothing of a request that bypassed CloudFront is looked at, not even its body.
      assertFromOrigin(event);
      const timeZone = headers['timezone']?.trim() || DEFAULT_TIME_ZONE;
      if (route.maxBodyBytes !== undefined && bodyBytes(event) > route.maxBodyBytes) {
        throw new DetailedError(413, 'PayloadTooLarge', 'PayloadTooLarge');
      }
      const body = parseBody(event);
      const ctx: Internal = { body, auth: null, timeZone, parsed: { body: undefined, query: undefined, params: undefined } };
      contexts.set(event, ctx);

      const token = bearerToken(headers['authorization']);
      if (route.access !== 'public') {
        if (!token) throw new UnauthenticatedError();
        const ports = getPorts();
        if (isApiKey(token)) {
          ctx.auth = await apiKeyAuth(route, token, ctx, ports.clock.now());
        } else {
          ctx.auth = await resolveAuth(token, ports.identity, ports.clock.now());
          if (route.access === 'admin' && !ctx.auth.isAdmin) throw new ForbiddenError('NoAccessToAdministratorPages');
          if (route.access === 'support' && !ctx.auth.isSupport) throw new ForbiddenError('NoAccessToSupportPages');
        }
        // The account is read for the routes that name a feature only, on every request (no cache).
        if (route.feature && !meetsFeature(await accountFeatures(ctx.auth.accountId), route.feature)) {
          throw new ForbiddenError(featureRequirements[route.feature].deniedKey);
        }
        // An ordinary user with a feature profile uses only its features (admins carry no profile id).
        const profileFeature = profileFeatureOf(route);
        if (profileFeature && ctx.auth.featureProfileId !== undefined) {
          if (!profileAllows(await featureProfileFeatures(ctx.auth.accountId, ctx.auth.featureProfileId), profileFeature)) {
            throw new ForbiddenError(organisationMessageKeys.FeatureNotInProfile);
          }
        }
      }

      const errors: FieldErrors = {};
      const collect = (fn: () => unknown): unknown => {
        try {
          return fn();
        } catch (e) {
          if (e instanceof ValidationError) Object.assign(errors, e.fieldErrors);
          else throw e;
          return undefined;
        }
      };
      if (!isValidTimeZone(timeZone)) errors['TimeZone'] = ['InvalidTimeZone'];
      ctx.parsed.params = collect(() => {
        checkPathParameters(event.pathParameters ?? {});
        return validate(route.params, event.pathParameters ?? {}, 'params');
      });
      ctx.parsed.query = collect(() => validate(route.query, event.queryStringParameters ?? {}, 'query'));
      ctx.parsed.body = collect(() => validate(route.body, body, 'body'));
      if (Object.keys(errors).length) throw new ValidationError(errors);
    },
  };
}

/**
 * An API key as the caller (docs/decisions/0045-api-keys-and-typed-client.md): a route without an
 * `apiKeyScope` (administration, support, and member routes not opened to keys) is refused before
 * the key is looked up; otherwise the key must be active (401), within its rate limit (429) and hold
 * the route's scope (403).
 */
async function apiKeyAuth(route: RouteDef, token: string, ctx: Internal, now: Date): Promise<AuthContext> {
  if (!route.apiKeyScope) throw new ForbiddenError(apiKeyMessageKeys.ApiKeyNotAllowed);
  const key = await resolveApiKey(token);
  ctx.apiKey = key;
  await countApiKeyCall(key, now);
  if (!key.scopes.includes(route.apiKeyScope)) throw new ForbiddenError(apiKeyMessageKeys.ApiKeyScopeMissing);
  return apiKeyAuthContext(key);
}

/** Every answer to a call made with an API key goes into the key's call log, after the answer is known. */
function apiKeyCallLogMiddleware(route: RouteDef): MiddlewareObj<Event, Result, Error, Context> {
  const record = async (request: { event: Event; response?: Result | null | undefined }) => {
    const key = contexts.get(request.event)?.apiKey;
    if (!key || !request.response) return;
    const call = {
      operationId: route.operationId,
      method: route.method,
      path: request.event.rawPath ?? route.path,
      status: request.response.statusCode ?? 200,
      client: clientAddress(request.event),
    };
    try {
      await recordApiKeyCall(key, call, getPorts().clock.now());
    } catch (error) {
      logger.error('API key call not logged', { keyId: key.keyId, error: error as Error });
    }
  };
  return { after: record, onError: record };
}

function errorMiddleware(route: RouteDef): MiddlewareObj<Event, Result, Error, Context> {
  return {
    onError: async (request) => {
      const error = request.error;
      if (!(error instanceof DomainError)) {
        logger.error('Unhandled error', { route: `${route.method} ${route.path}`, error: error as Error });
      }
      request.response = errorResponse(error);
    },
  };
}

function logMiddleware(route: RouteDef): MiddlewareObj<Event, Result, Error, Context> {
  // Per event, not per handler: the embedded runtime runs many requests through one handler at once.
  const started = new WeakMap<Event, number>();
  const done = (request: { event: Event; response?: Result | null | undefined }) => {
    logger.info('request', {
      route: `${route.method} ${route.path}`,
      requestId: request.event.requestContext?.requestId,
      status: request.response?.statusCode,
      durationMs: Math.round(performance.now() - (started.get(request.event) ?? performance.now())),
    });
  };
  return {
    before: async (request) => {
      started.set(request.event, performance.now());
    },
    after: async (request) => done(request),
    onError: async (request) => {
      // Runs after the error mapper (middy calls onError in reverse order), so the status is known.
      if (request.response) done(request);
    },
  };
}

/**
 * Wraps one operation. Its route entry decides access and schemas; the function gets parsed,
 * typed input and returns the `data` of the success envelope (or an HttpReply). The handler
 * carries the route it serves, so the contract test (test/contract/handler-files.ts) can tie each
 * manifest entry to the file that serves it.
 */
export function httpHandler<R extends RouteDef>(route: R, fn: Handler<R>, options: HandlerOptions = {}) {
  return Object.assign(wrapOperation(route, fn, options), { route });
}

/** What a request with an Idempotency-Key hands the runner of functions/platform/idempotency.ts. */
export interface IdempotentRequest {
  readonly key: string;
  readonly accountId: string;
  readonly userId: string;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

export interface HandlerOptions {
  /**
   * Applies a request with an Idempotency-Key once per key (`idempotentHandler` in
   * functions/platform/idempotency.ts sets it; only its handlers bundle the idempotency table).
   */
  readonly applyOnce?: (request: IdempotentRequest, now: Date, apply: () => Promise<Result>) => Promise<Result>;
}

function wrapOperation<R extends RouteDef>(route: R, fn: Handler<R>, options: HandlerOptions) {
  // A feature belongs to an account, so a route open to anyone cannot require one.
  if (route.feature && route.access === 'public') {
    throw new Error(`${route.method} ${route.path}: a public route cannot require the feature ${route.feature}`);
  }
  // shared/idempotency.ts lists the routes that take the header; their handlers must apply it.
  if (idempotentOperations.has(route.operationId) !== Boolean(options.applyOnce)) {
    throw new Error(`${route.method} ${route.path}: shared/idempotency.ts and its handler disagree on the Idempotency-Key (use idempotentHandler)`);
  }
  if (options.applyOnce && route.access === 'public') throw new Error(`${route.method} ${route.path}: keys belong to an account, a public route cannot take them`);
  // Keys act for members, never as admins or support staff.
  if (route.apiKeyScope && route.access !== 'member') {
    throw new Error(`${route.method} ${route.path}: only a member route can be opened to API keys (${route.apiKeyScope})`);
  }
  return middy<Event, Result, Error, Context, { ctx: Internal }>()
    .use(logMiddleware(route))
    .use(apiKeyCallLogMiddleware(route))
    .use(errorMiddleware(route))
    .use(httpHeaderNormalizer())
    .use(contextMiddleware(route))
    .handler(async (event) => {
      const internal = contexts.get(event);
      if (!internal) throw new Error('request context missing');
      const ctx = {
        body: internal.parsed.body,
        query: internal.parsed.query,
        params: internal.parsed.params,
        auth: internal.auth,
        timeZone: internal.timeZone,
        ports: getPorts(),
        event,
      } as RequestContext<R>;
      const run = async (): Promise<Result> => answerOf(await fn(ctx));
      const key = options.applyOnce ? event.headers[IDEMPOTENCY_HEADER.toLowerCase()] : undefined;
      if (key === undefined || !options.applyOnce || !internal.auth) return run();
      // Applied once per key: a domain refusal is an answer too, stored and replayed like a success.
      const request = { key, accountId: internal.auth.accountId, userId: internal.auth.userId, method: route.method, path: event.rawPath, body: internal.body };
      return options.applyOnce(request, ctx.ports.clock.now(), async () => {
        try {
          return await run();
        } catch (error) {
          if (error instanceof DomainError) return errorResponse(error);
          throw error;
        }
      });
    });
}

function answerOf(out: unknown): Result {
  if (out instanceof Redirect) return { statusCode: 302, headers: { location: out.location, 'cache-control': 'no-store' }, body: '' };
  if (out instanceof HttpReply) {
    const result = json(out.status, { success: true, data: out.data, ...(out.message ? { message: out.message } : {}) });
    return out.cookies?.length ? { ...result, cookies: [...(out.cookies as readonly string[])] } : result;
  }
  return json(200, { success: true, data: out ?? null });
}
