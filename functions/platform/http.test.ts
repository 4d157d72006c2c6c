import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { RouteDef } from '../../shared/routes';
import { useLocalTables } from '../../test/support/local-tables';
import { ConflictError, DetailedError, NotFoundError, TooManyRequestsError } from './errors';
import { accepted, created, errorResponse, fieldErrorsOf, httpHandler, Redirect } from './http';
import { logger, redactReplacer } from './logger';

const context = {} as Context;
function event(body: unknown, headers: Record<string, string> = {}, query?: Record<string, string>): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /t',
    rawPath: '/t',
    rawQueryString: '',
    headers: { 'Content-Type': 'application/json', ...headers },
    ...(query ? { queryStringParameters: query } : {}),
    requestContext: { requestId: 'r1', http: { method: 'POST', path: '/t' } } as APIGatewayProxyEventV2['requestContext'],
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    isBase64Encoded: false,
  } as APIGatewayProxyEventV2;
}

const route = {
  operationId: 't',
  method: 'POST',
  path: '/t',
  capability: 'dev',
  file: 't',
  access: 'public',
  summary: 'test',
  body: z.object({ name: z.string().min(1, 'SpecifyName').max(5), age: z.number().int().optional() }),
  query: z.object({ page: z.coerce.number().int().min(1).default(1) }),
} satisfies RouteDef;

beforeAll(async () => {
  await useLocalTables();
});

describe('httpHandler', () => {
  it('hands parsed input and the time zone to the operation and wraps its data', async () => {
    const h = httpHandler(route, async ({ body, query, timeZone }) => ({ hello: body.name, page: query.page, timeZone }));
    const res = await h(event({ name: 'Ada' }, { TimeZone: 'Europe/Oslo' }, { page: '2' }), context);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body ?? '')).toEqual({ success: true, data: { hello: 'Ada', page: 2, timeZone: 'Europe/Oslo' } });
    const res2 = await h(event({ name: 'Ada' }), context);
    expect(JSON.parse(res2.body ?? '').data.timeZone).toBe('Europe/Stockholm');
  });

  it("answers 413 for a body over the route's cap before parsing it, counting bytes, not characters", async () => {
    const capped = { ...route, maxBodyBytes: 24 } satisfies RouteDef;
    const operation = vi.fn(async () => 'read');
    const h = httpHandler(capped, operation);
    const fits = '{"name":"Ada","age":1}'; // 22 bytes
    expect((await h(event(fits), context)).statusCode).toBe(200);
    // Base64 counts as the bytes it stands for (32 characters, 22 bytes).
    expect((await h({ ...event(undefined), body: Buffer.from(fits).toString('base64'), isBase64Encoded: true }, context)).statusCode).toBe(200);
    // 17 characters but 25 bytes, and not even JSON: refused before it is parsed.
    const over = await h(event(`{"name":"${'å'.repeat(8)}`), context);
    expect(over.statusCode).toBe(413);
    expect(JSON.parse(over.body ?? '')).toEqual({ success: false, message: 'PayloadTooLarge', errors: 'PayloadTooLarge' });
    expect(operation).toHaveBeenCalledTimes(2);
  });

  it('collects every field error of body, query and headers into one 422', async () => {
    const h = httpHandler(route, async () => 'never');
    const res = await h(event({ name: '', age: 'x', extra: 1 }, { TimeZone: 'Nowhere/Land' }, { page: '0' }), context);
    expect(res.statusCode).toBe(422);
    expect(JSON.parse(res.body ?? '')).toEqual({
      success: false,
      message: 'ValidationFailed',
      errors: { name: ['SpecifyName'], age: ['InvalidType'], page: ['TooShort'], TimeZone: ['InvalidTimeZone'] },
    });
  });

  it('answers a missing body as missing fields and a non-JSON content type as such', async () => {
    const h = httpHandler(route, async () => 'never');
    let res = await h(event(undefined), context);
    expect(JSON.parse(res.body ?? '').errors).toEqual({ name: ['FieldRequired'] });
    res = await h(event('name=x', { 'Content-Type': 'application/x-www-form-urlencoded' }), context);
    expect(JSON.parse(res.body ?? '').errors).toEqual({ body: ['UnsupportedContentType'] });
  });

  it('answers a body of JSON null as missing, not as an empty object', async () => {
    const optional = { ...route, body: z.object({ name: z.string().optional() }) } satisfies RouteDef;
    const run = vi.fn(async () => 'ran');
    const h = httpHandler(optional, run);
    const res = await h(event('null'), context);
    expect(res.statusCode).toBe(422);
    expect(JSON.parse(res.body ?? '').errors).toEqual({ body: ['FieldRequired'] });
    expect(run).not.toHaveBeenCalled();
    expect((await h(event(undefined), context)).statusCode).toBe(200);
  });

  it('refuses a path parameter with a control character or U+FFFD before its schema and the handler', async () => {
    const withId = { ...route, path: '/t/{id}', body: undefined, params: z.object({ id: z.string().min(1) }) } satisfies RouteDef;
    const run = vi.fn(async () => 'ran');
    const h = httpHandler(withId, run);
    for (const id of ['a\ufffd', '\u0000', 'x\u001fy', '\u007f']) {
      const res = await h({ ...event(undefined), pathParameters: { id } }, context);
      expect(res.statusCode, JSON.stringify(id)).toBe(422);
      expect(JSON.parse(res.body ?? '').errors).toEqual({ id: ['InvalidValue'] });
    }
    expect(run).not.toHaveBeenCalled();
    expect((await h({ ...event(undefined), pathParameters: { id: 'åäö 😀' } }, context)).statusCode).toBe(200);
  });

  it('answers input a schema throws on as 422 InvalidValue, and logs the schema fault', async () => {
    const spy = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const throwing = {
      ...route,
      body: z.object({ day: z.string() }).superRefine((v) => {
        if (v.day === 'boom') throw new RangeError('Invalid time value at /var/task/index.js:1');
      }),
    } satisfies RouteDef;
    const run = vi.fn(async () => 'ran');
    const res = await httpHandler(throwing, run)(event({ day: 'boom' }), context);
    expect(res.statusCode).toBe(422);
    expect(res.body).not.toMatch(/Invalid time|index\.js|RangeError/);
    expect(JSON.parse(res.body ?? '')).toEqual({ success: false, message: 'ValidationFailed', errors: { body: ['InvalidValue'] } });
    expect(run).not.toHaveBeenCalled();
    expect(spy).toHaveBeenCalledWith('Schema failed on its input', expect.objectContaining({ part: 'body' }));
    spy.mockRestore();
  });

  it('maps domain errors in one place and hides unexpected ones', async () => {
    const spy = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const boom = httpHandler(route, async () => {
      throw new Error('secret internals at /var/task/index.js:12');
    });
    const res = await boom(event({ name: 'Ada' }), context);
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/internals|index\.js|at /);
    expect(JSON.parse(res.body ?? '')).toEqual({ success: false, message: 'SomethingWentWrong', errors: 'SomethingWentWrong' });
    expect(spy).toHaveBeenCalledOnce();
    spy.mockRestore();

    const make = httpHandler(route, async ({ body }) => created({ id: body.name }, 'Created'));
    const ok = await make(event({ name: 'Ada' }), context);
    expect(ok.statusCode).toBe(201);
    expect(JSON.parse(ok.body ?? '')).toEqual({ success: true, data: { id: 'Ada' }, message: 'Created' });

    const queued = await httpHandler(route, async ({ body }) => accepted({ job: body.name }))(event({ name: 'Ada' }), context);
    expect(queued.statusCode).toBe(202);
    expect(JSON.parse(queued.body ?? '')).toEqual({ success: true, data: { job: 'Ada' } });
  });

  it('answers a redirect as a bare 302 with its Location, never cached', async () => {
    const moved = await httpHandler({ ...route, redirects: true }, async () => new Redirect('/api/v1/files/abc.def'))(event({ name: 'Ada' }), context);
    expect(moved).toEqual({ statusCode: 302, headers: { location: '/api/v1/files/abc.def', 'cache-control': 'no-store' }, body: '' });
  });

  it("types what the operation returns by the route's response schema (the type check fails otherwise)", async () => {
    const typed = { ...route, response: z.object({ id: z.string(), tag: z.string().default('') }) } satisfies RouteDef;
    // What the schema accepts: its input type, so a field with a default may be left out.
    const plain = httpHandler(typed, async ({ body }) => ({ id: body.name }));
    httpHandler(typed, async ({ body }) => created({ id: body.name, tag: 'new' }));
    // @ts-expect-error a field of the wrong type
    httpHandler(typed, async () => ({ id: 1 }));
    // @ts-expect-error the same inside an HttpReply
    httpHandler(typed, async () => created({ id: 1 }));
    // @ts-expect-error no data where the schema wants some
    httpHandler(typed, async () => undefined);
    expect(JSON.parse((await plain(event({ name: 'Ada' }), context)).body ?? '')).toEqual({ success: true, data: { id: 'Ada' } });
  });

  it('refuses member routes without a token with the 401 body', async () => {
    const h = httpHandler({ ...route, access: 'member' }, async () => 'never');
    const res = await h(event({ name: 'Ada' }), context);
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body ?? '')).toEqual({ message: 'Unauthenticated.' });
  });
});

describe('error mapping', () => {
  it('gives each domain error its status and key', () => {
    expect(errorResponse(new NotFoundError()).statusCode).toBe(404);
    expect(errorResponse(new ConflictError('EmailTaken')).body).toContain('EmailTaken');
    const tooMany = errorResponse(new TooManyRequestsError(3600));
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.headers?.['retry-after']).toBe('3600');
    const detailed = errorResponse(new DetailedError(401, 'InvalidCredentials', { msg: 'InvalidCredentials', count: 3 }));
    expect(JSON.parse(detailed.body ?? '')).toEqual({ success: false, message: 'InvalidCredentials', errors: { msg: 'InvalidCredentials', count: 3 } });
  });

  it('turns zod issues into message keys per field', () => {
    const schema = z.object({ a: z.object({ b: z.string().email('EnterValidEmail') }) });
    const result = schema.safeParse({ a: { b: 'nope' } });
    expect(result.success).toBe(false);
    if (!result.success) expect(fieldErrorsOf(result.error)).toEqual({ 'a.b': ['EnterValidEmail'] });
  });
});

describe('logs', () => {
  it('never carry secrets, at any depth', () => {
    const line = JSON.stringify(
      { user: 'ada', password: 'Hunter2!', nested: { accessToken: 'abc', code: '123456', headers: { authorization: 'Bearer x' } } },
      redactReplacer,
    );
    expect(line).not.toMatch(/Hunter2|abc|123456|Bearer x/);
    expect(line).toContain('ada');
  });
});
