/**
 * Bad input never answers 500. Every route of the manifest (shared/routes.ts, the routes of the
 * OpenAPI document) is sent, as an attacker would, broken JSON and malformed path parameters with
 * and without a token (escapes that are no UTF-8, control characters, values the route's schema
 * refuses), and query values and bodies generated with fast-check from the fields of the route's
 * schemas: the fields filled with values each takes and then one or two made wrong (so that a rule
 * over two fields, a period, meets one good and one bad value), or any fields of any JSON type.
 * Only input the route's schema refuses is sent, so no handler runs and nothing changes. Each
 * answer is a 4xx whose message and error keys have texts (shared/i18n) and that carries no
 * internal detail; a schema must also refuse such input with issues rather than throw. Logged in
 * as the demo admin (support routes: the demo support user).
 *
 * The fast-check seed is fixed: the same inputs on every run.
 */
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { routeList, type RouteDef } from '../../shared/routes';
import { isMessageKey } from '../../shared/i18n/index';
import { namesNothing } from '../../functions/platform/http';
import { decodePathParameter } from '../../infra/local/api-event';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoSupportUser, demoUsers } from '../../infra/local/seed';
import { call, type CallResult } from '../support/http';
import { startRuntime } from '../support/runtime';
import { callerFor, type Caller } from '../support/api-caller';

const SEED = 20261129;
/** Inputs per route and part: about 700 requests in all, some 30 s on a busy machine. */
const RUNS = 6;
const PATH_RUNS = 4;

let rt: EmbeddedRuntime;
let admin: Caller;
let support: Caller;

beforeAll(async () => {
  rt = await startRuntime();
  [admin, support] = await Promise.all([callerFor(demoUsers.admin.username, DEMO_PASSWORD), callerFor(demoSupportUser.username, DEMO_PASSWORD)]);
});
afterAll(async () => rt?.stop());

const tokenFor = (route: RouteDef): string | undefined => (route.access === 'public' ? undefined : route.access === 'support' ? support.token : admin.token);

type Answer = CallResult<Record<string, unknown> | null>;

/** What an answer to bad input must be: a 4xx with translated keys, nothing of the server's inside. */
function expectRefusal(answer: Answer, what: string): void {
  const text = JSON.stringify(answer.body);
  expect(answer.status, `${what}: ${answer.status} ${text}`).toBeGreaterThanOrEqual(400);
  expect(answer.status, `${what}: ${answer.status} ${text}`).toBeLessThan(500);
  expectNoInternals(text, what);
  const body = answer.body ?? {};
  expect(typeof body['message'] === 'string' && isMessageKey(body['message']), `${what}: message ${text}`).toBe(true);
  const errors = body['errors'];
  const keys = typeof errors === 'string' ? [errors] : errors && typeof errors === 'object' ? Object.values(errors).flat() : [];
  for (const key of keys) {
    // Login's `{ msg, count }` is the one error body with a number in it.
    if (typeof key === 'number') continue;
    expect(typeof key === 'string' && isMessageKey(key), `${what}: error key ${JSON.stringify(key)} in ${text}`).toBe(true);
  }
}

function expectNoInternals(text: string, what: string): void {
  expect(text, what).not.toMatch(
    /\bstack\b|node_modules|\.[jt]s:\d|\bat [\w.<>]+ \(|\b(?:Type|Range|Reference|Syntax|URI|Eval|Aggregate)Error\b|\bError:|Cannot read prop|Invalid time value|URI malformed|is not a function/,
  );
}

/** The path with each `{name}` filled, the one under test with its segment as sent. */
function pathOf(route: RouteDef, segments: Record<string, string> = {}): string {
  return route.path.replace(/\{(\w+)\}/g, (_, name: string) => segments[name] ?? 'x1');
}
const paramNames = (route: RouteDef): string[] => [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);

/** Whether a schema refuses a value; a schema that throws on it refuses it too (the server answers 422). */
function refuses(schema: z.ZodType, value: unknown): boolean {
  try {
    return !schema.safeParse(value).success;
  } catch {
    return true;
  }
}

interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  in?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
}
/**
 * A schema answers any input with issues, never by throwing: the middleware turns a throw into 422
 * InvalidValue (functions/platform/http.ts), which would hide a schema's fault from the answers.
 */
function expectNoThrow(schema: z.ZodType, value: unknown, what: string): void {
  expect(() => schema.safeParse(value), what).not.toThrow();
}

/** The field schemas of an object schema, through pipes, defaults and over the members of a union. */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  const def = (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
  if (def.shape) return def.shape;
  if (def.in) return shapeOf(def.in);
  if (def.innerType) return shapeOf(def.innerType);
  if (def.options) return Object.assign({}, ...def.options.map(shapeOf)) as Record<string, z.ZodType>;
  return {};
}

const DAY = '2026-10-01';
/**
 * Values a field may get: plausible ones (so that a rule over two fields meets one good and one bad
 * value), bad dates and offsets, and values of every JSON type.
 */
const plausible = [demoImei(0), DAY, '2026-10-02', '2026-10-01T10:00:00Z', '2026-10-01 10:00', 'x1', 'demo-admin', 'a@b.se', '1', '0', 'true'];
const badText = ['1x', '2026-02-30', '2026-13-01', '0000-00-00', '2026-10-01T10:00+99:99', '2026-10-01T25:61', '', ' ', '%ff', '\u0000', 'a'.repeat(5000), '<script>', '../..', '-1', 'NaN', '1e400'];
const textValue = fc.oneof(fc.constantFrom(...plausible), fc.constantFrom(...badText), fc.string({ maxLength: 40 }));
const jsonValue = fc.oneof(
  textValue,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, '\ud800'),
  fc.integer(),
  fc.array(fc.oneof(textValue, fc.integer()), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('a', 'id', 'from', 'to', '__proto__', 'constructor'), fc.oneof(textValue, fc.integer()), { maxKeys: 2 }),
);

/** An object over some of the given names (and now and then one it does not have) with the values given. */
function objectOver<T>(names: string[], value: fc.Arbitrary<T>, extra: string[] = ['unknownField', '__proto__']): fc.Arbitrary<Record<string, T>> {
  const keys = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...(names.length ? names : ['x'])) }, { weight: 1, arbitrary: fc.constantFrom(...extra) });
  return fc.array(fc.tuple(keys, value), { maxLength: names.length + 1 }).map((pairs) => {
    const out: Record<string, T> = {};
    for (const [k, v] of pairs) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    return out;
  });
}

/** For each field, the first of the values given its own schema takes (fields none fits are left out). */
function plausibleFields(shape: Record<string, z.ZodType>, pool: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    const fits = pool.find((value) => !refuses(field, value));
    if (fits !== undefined) out[name] = fits;
  }
  return out;
}

/**
 * Objects a schema refuses: the fields it takes filled with values each takes, one or two of them
 * then given a wrong value (so that a rule over two fields meets one good and one bad one), or
 * any of its fields with any values.
 */
function badObjects<T>(schema: z.ZodType, pool: readonly T[], value: fc.Arbitrary<T>, extra?: string[]): fc.Arbitrary<Record<string, T>> {
  const shape = shapeOf(schema);
  const names = Object.keys(shape);
  const base = plausibleFields(shape, pool) as Record<string, T>;
  const broken = fc.array(fc.tuple(fc.constantFrom(...(names.length ? names : ['x'])), value), { minLength: 1, maxLength: 2 }).map((changes) => {
    const out = { ...base };
    for (const [name, v] of changes) out[name] = v;
    return out;
  });
  return fc.oneof({ weight: 3, arbitrary: broken }, { weight: 1, arbitrary: objectOver(names, value, extra) });
}

const bodyPool: readonly unknown[] = [...plausible, 1, 0, true, false, [], {}, [demoImei(0)], ['x1', 'x2']];
const wrongBody = (schema: z.ZodType) =>
  fc.oneof({ weight: 1, arbitrary: fc.constantFrom<unknown>(null, 0, 'text', true, [], [1, 2]) }, {
    weight: 5,
    // Mostly text: a value of another type fails its field's type check, text meets the field's rules.
    arbitrary: badObjects(schema, bodyPool, fc.oneof({ weight: 3, arbitrary: textValue }, { weight: 1, arbitrary: jsonValue })).map((o): unknown => o),
  });

/**
 * Path segments as sent, and what they decode to: escapes that are no UTF-8, a NUL, control
 * characters, and text the route's schema may refuse (too long, wrong shape).
 */
const malformedSegment = fc.oneof(
  fc.constantFrom('%ff', '%c3%28', '%e2%82', '%00', '%1f', 'a%80b', '%ed%a0%80', '%7f'),
  fc.string({ minLength: 1, maxLength: 300 }).map((s) => encodeURIComponent(s)),
  fc.string({ minLength: 65, maxLength: 300, unit: fc.constantFrom('a', '9', '-', '%ff') }),
);

/** A body sent as the text given, as JSON. */
function sendText(route: RouteDef, text: string, token: string | undefined): Promise<Answer> {
  const url = new URL(pathOf(route), rt.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: route.method, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(token ? { authorization: `Bearer ${token}` } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>, headers: res.headers, setCookies: [] });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

async function send(route: RouteDef, path: string, body: unknown, token: string | undefined): Promise<Answer> {
  return call<Record<string, unknown> | null>(rt.url, route.method, path, body, token ? { token } : {});
}

/** A query string of the values given, each sent as it is. */
const queryOf = (values: Record<string, string>) => new URLSearchParams(Object.entries(values)).toString();

describe('routes refuse bad input with a 4xx and translated keys', () => {
  it('the bugs that were found: a malformed escape, a period from 1x, a booking at +99:99', async () => {
    const imei = demoImei(0);
    const positions = await call(rt.url, 'GET', '/api/v1/user/units/%ff/positions?from=2026-10-01T00:00:00Z&to=2026-10-02T00:00:00Z', undefined, { token: admin.token });
    expect(positions.status).toBe(422);
    expect(positions.body['errors']).toEqual({ imei: ['InvalidValue'] });
    expect((await call(rt.url, 'GET', '/api/v1/user/units/%ff/positions')).status).toBe(401);

    const period = { imei, from: '1x', to: DAY };
    for (const path of ['/api/v1/user/trips', '/api/v1/user/trips/attestations']) {
      const answer = await call(rt.url, 'GET', `${path}?${queryOf(period)}`, undefined, { token: admin.token });
      expect(answer.status, path).toBe(422);
      expect(answer.body['errors'], path).toEqual({ from: ['InvalidDate'] });
    }
    const attest = await call(rt.url, 'POST', '/api/v1/user/trips/attest', period, { token: admin.token });
    expect(attest.status).toBe(422);
    expect(attest.body['errors']).toEqual({ from: ['InvalidDate'] });
    const apply = await call(rt.url, 'POST', '/api/v1/user/places/x1/apply', { from: '1x', to: DAY }, { token: admin.token });
    expect(apply.status).toBe(422);
    expect(apply.body['errors']).toEqual({ from: ['PlaceApplyInvalidDate'] });

    const booking = { imei, start_date: '2026-10-01T10:00+99:99', end_date: '2026-10-01T11:00+02:00', purpose: 'Fuzz', driver_id: admin.userId };
    const booked = await call(rt.url, 'POST', '/api/v1/user/car-schedule', booking, { token: admin.token });
    expect(booked.status).toBe(422);
    expect(booked.body['errors']).toEqual({ start_date: ['InvalidBookingTime'] });
  });

  it('every route: broken JSON, and a malformed path parameter without a token', async () => {
    for (const route of routeList) {
      const what = `${route.method} ${route.path}`;
      const broken = await sendText(route, '{"broken": ', tokenFor(route));
      expectRefusal(broken, `${what} broken JSON`);
      expect(broken.body?.['errors'], what).toEqual({ body: ['InvalidJson'] });

      const names = paramNames(route);
      if (names.length) {
        const anonymous = await send(route, pathOf(route, Object.fromEntries(names.map((n) => [n, '%ff']))), undefined, undefined);
        expectRefusal(anonymous, `${what} %ff without a token`);
        if (route.access !== 'public') expect(anonymous.status, what).toBe(401);
      }
    }
  });

  it('every route with path parameters: malformed ones are refused before the handler', async () => {
    for (const route of routeList) {
      const names = paramNames(route);
      for (const name of names) {
        const property = fc.asyncProperty(malformedSegment, async (segment) => {
          const value = decodePathParameter(segment);
          // A segment the URL would resolve (`..`) names another path; one the schema takes is no malformed input.
          fc.pre(value !== '.' && value !== '..');
          fc.pre(namesNothing(value) || !route.params || refuses(route.params, { ...Object.fromEntries(names.map((n) => [n, 'x1'])), [name]: value }));
          const answer = await send(route, pathOf(route, { [name]: segment }), undefined, tokenFor(route));
          expectRefusal(answer, `${route.method} ${route.path} ${name}=${segment}`);
        });
        await fc.assert(property, { seed: SEED, numRuns: PATH_RUNS, maxSkipsPerRun: 50 });
      }
    }
  });

  it('every route with a query: values its schema refuses are answered 422', async () => {
    for (const route of routeList) {
      const schema = route.query;
      if (!schema) continue;
      const property = fc.asyncProperty(badObjects(schema, plausible, textValue, ['unknownField']), async (query) => {
        expectNoThrow(schema, query, `${route.method} ${route.path}?${queryOf(query)}`);
        fc.pre(refuses(schema, query));
        const answer = await send(route, `${pathOf(route)}?${queryOf(query)}`, undefined, tokenFor(route));
        expectRefusal(answer, `${route.method} ${route.path}?${queryOf(query)}`);
      });
      await fc.assert(property, { seed: SEED, numRuns: RUNS * 2, maxSkipsPerRun: 50 });
    }
  });

  it('every route with a body: bodies of the wrong type are answered 4xx', async () => {
    for (const route of routeList) {
      const schema = route.body;
      if (!schema) continue;
      const property = fc.asyncProperty(wrongBody(schema), async (body) => {
        // As it arrives: what JSON keeps of it.
        const wire = JSON.parse(JSON.stringify(body)) as unknown;
        expectNoThrow(schema, wire, `${route.method} ${route.path} ${JSON.stringify(wire).slice(0, 200)}`);
        fc.pre(refuses(schema, wire));
        const answer = await send(route, pathOf(route), wire, tokenFor(route));
        expectRefusal(answer, `${route.method} ${route.path} ${JSON.stringify(wire).slice(0, 200)}`);
      });
      await fc.assert(property, { seed: SEED, numRuns: RUNS * 2, maxSkipsPerRun: 50 });
    }
  });
});
