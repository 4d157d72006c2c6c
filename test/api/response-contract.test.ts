/**
 * The check every API test makes of each successful answer (test/support/response-contract.ts):
 * an answer that leaves its route's response schema, by a field the schema does not name or a
 * value of the wrong type, fails the request that received it, through `call` and `apiFetch`
 * alike; and a real handler of the embedded runtime answering a wrong type is caught the same way.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getPorts, overridePorts } from '../../functions/platform/container';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { routeList } from '../../shared/routes';
import type { Settings } from '../../shared/schemas/system';
import { apiFetch, call } from '../support/http';
import { AnswerOutsideSchemaError, answerSchema, checkAnswer, routeFor, strictVariant } from '../support/response-contract';
import { startRuntime } from '../support/runtime';
import { createTestUser, loginAs } from '../support/sessions';

const SETTINGS = '/api/v1/user/settings';
const settings: Settings = {
  enable_rfid: false,
  enable_car_booking: false,
  EnableSafeReturnHome: false,
  realtime_map: true,
  basic_only: false,
  is_admin: true,
  is_support: false,
  ParentID: null,
};
const answer = (data: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ success: true, data, ...extra });

describe('checkAnswer', () => {
  it('passes an answer its route allows', () => {
    expect(() => checkAnswer('GET', SETTINGS, 200, answer(settings))).not.toThrow();
    expect(() => checkAnswer('POST', '/api/v1/forgot-password', 200, answer(null, { message: 'PasswordResetLink' }))).not.toThrow();
  });

  it('fails a field the schema does not name, at any depth, and in the envelope', () => {
    expect(() => checkAnswer('GET', SETTINGS, 200, answer({ ...settings, accountId: 'leaked' }))).toThrow(AnswerOutsideSchemaError);
    expect(() => checkAnswer('GET', SETTINGS, 200, answer(settings, { debug: true }))).toThrow(/Unrecognized key/);
    const units = [{ imei: '356938035643809', name: 'Van', registrationNumber: null, vehicleType: 'van', color: '#1971c2', symbol: 'van', driver: null, departments: [], lastSeen: null }];
    expect(() => checkAnswer('GET', '/api/v1/user/units', 200, answer(units))).not.toThrow();
    expect(() => checkAnswer('GET', '/api/v1/user/units', 200, answer([{ ...units[0], accountId: 'leaked' }]))).toThrow(/accountId/);
  });

  it('fails a wrong type, a missing field and a body that is not JSON', () => {
    expect(() => checkAnswer('GET', SETTINGS, 200, answer({ ...settings, realtime_map: 'yes' }))).toThrow(/realtime_map/);
    const { ParentID: _, ...withoutParent } = settings;
    expect(() => checkAnswer('GET', SETTINGS, 200, answer(withoutParent))).toThrow(/ParentID/);
    expect(() => checkAnswer('GET', SETTINGS, 200, JSON.stringify({ data: settings }))).toThrow(/success/);
    expect(() => checkAnswer('GET', SETTINGS, 200, '<html>')).toThrow(/not JSON/);
  });

  it('finds the route by method and path, path parameters included', () => {
    expect(routeFor('GET', 'http://127.0.0.1:1/api/v1/user/trackers/356938035643809/latest-position?x=1')?.operationId).toBe('getLatestPosition');
    expect(routeFor('POST', '/api/v1/user/units/356938035643809/commands')?.operationId).toBe('postUnitCommand');
    expect(() => checkAnswer('GET', '/api/v1/user/trackers/356938035643809/latest-position', 200, answer({ Latitude: 59.3, Longitude: 'x' }))).toThrow();
  });

  it('leaves error answers and paths outside the manifest alone', () => {
    expect(() => checkAnswer('GET', SETTINGS, 403, JSON.stringify({ success: false, message: 'Forbidden', errors: 'Forbidden' }))).not.toThrow();
    expect(() => checkAnswer('GET', '/api/health', 200, JSON.stringify({ anything: true }))).not.toThrow();
    expect(() => checkAnswer('DELETE', SETTINGS, 200, '{}')).not.toThrow();
  });
});

describe('strictVariant', () => {
  it('refuses unknown fields where z.object() would strip them, and keeps what a loose object allows', () => {
    const schema = z.object({
      plain: z.object({ a: z.string() }).optional(),
      list: z.array(z.object({ b: z.number() }).nullable()).default([]),
      either: z.union([z.object({ c: z.literal(1) }), z.object({ d: z.literal(2) })]).optional(),
      loose: z.looseObject({ e: z.string() }).optional(),
      id: z.union([z.string(), z.number()]).transform(String).optional(),
    });
    const strict = strictVariant(schema);
    expect(strict.safeParse({ plain: { a: 'x' }, list: [{ b: 1 }, null], either: { d: 2 }, loose: { e: 'y', more: 1 }, id: 7 }).success).toBe(true);
    for (const wrong of [{ extra: 1 }, { plain: { a: 'x', z: 1 } }, { list: [{ b: 1, z: 1 }] }, { either: { c: 1, z: 1 } }]) {
      expect(strict.safeParse(wrong).success, JSON.stringify(wrong)).toBe(false);
      expect(schema.safeParse(wrong).success, `z.object alone strips ${JSON.stringify(wrong)}`).toBe(true);
    }
  });

  it('builds an answer schema for every route of the manifest', () => {
    for (const route of routeList) expect(() => answerSchema(route), route.operationId).not.toThrow();
  });
});

describe('an answer outside its schema fails the test that receives it', () => {
  let server: Server;
  let url: string;
  let body = '';

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('through call and apiFetch', async () => {
    body = answer(settings);
    expect((await call(url, 'GET', SETTINGS)).status).toBe(200);
    expect((await apiFetch(`${url}${SETTINGS}`)).status).toBe(200);

    body = answer({ ...settings, accountId: 'leaked' });
    await expect(call(url, 'GET', SETTINGS)).rejects.toThrow(AnswerOutsideSchemaError);
    await expect(apiFetch(`${url}${SETTINGS}`)).rejects.toThrow(/GET \/api\/v1\/user\/settings answered 200 outside its response schema/);
  });

  describe('from a handler of the embedded runtime', () => {
    let rt: EmbeddedRuntime;
    let token: string;

    beforeAll(async () => {
      rt = await startRuntime({ seed: false });
      const u = await createTestUser();
      ({ token } = await loginAs(u.username, u.password));
    });
    afterAll(async () => {
      await rt?.stop();
    });

    it('a reverse geocode whose address is not a string', async () => {
      const geocoder = getPorts().geocoder;
      // A geocoder that breaks its own contract, so the handler answers a number where the schema has a string.
      const label = 42 as unknown as string;
      overridePorts({ geocoder: { ...geocoder, reverse: async (lat, lon) => ({ label, lat, lon }) } });
      try {
        await expect(call(rt.url, 'GET', '/api/v1/user/geocode/reverse?lat=12.345&lon=45.678', undefined, { token })).rejects.toThrow(/address/);
      } finally {
        overridePorts({ geocoder });
      }
    });
  });
});
