/**
 * The Idempotency-Key middleware (functions/platform/idempotency.ts) on the routes that take it
 * (shared/idempotency.ts): a repeat with the same key is applied once and answered the first
 * answer; concurrent repeats are applied once; a key used with another body answers 422; keys are
 * the account's own; a refusal is stored and replayed too; without the header nothing changes.
 * Whether a write was applied is read from the trip's version `v`, which every applied edit raises.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import { dynamo, tableName } from '../../functions/platform/db';
import { getTrip } from '../../functions/trips/trip-repository';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { localDayOf, startOfLocalDay } from '../../shared/local-time';
import { demoCallers, type Caller } from '../support/api-caller';
import { apiFetch } from '../support/http';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { startRuntime } from '../support/runtime';
import { storeTestTrip } from '../support/stored-trips';

const STOCKHOLM = 'Europe/Stockholm';
let rt: EmbeddedRuntime;
let admin: Caller;
let other: Caller;
let spare = 0;

interface Answer {
  status: number;
  replayed: boolean;
  text: string;
  body: { success?: boolean; data?: Record<string, unknown>; message?: string; errors?: unknown };
}

async function send(method: string, path: string, who: Caller, body: unknown, key?: string): Promise<Answer> {
  const res = await apiFetch(`${rt.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${who.token}`,
      timezone: STOCKHOLM,
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', text, body: JSON.parse(text) as Answer['body'] };
}

async function newTrip(daysBack: number): Promise<{ id: string; imei: string; startTs: number }> {
  const imei = demoImei(600 + spare++);
  const unit: UnitRecord = { imei, accountId: admin.accountId, name: `Idempotent car ${imei}`, vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  const startTs = startOfLocalDay(localDayOf(Date.now() - daysBack * 86_400_000, STOCKHOLM), STOCKHOLM) + 9 * 3_600_000;
  return { id: await storeTestTrip(imei, startTs), imei, startTs };
}

const version = async (trip: { imei: string; startTs: number }) => (await getTrip(trip.imei, trip.startTs))?.v ?? 0;

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, other } = await demoCallers());
});

afterAll(async () => {
  await rt?.stop();
});

describe('Idempotency-Key on PUT /api/v1/user/trips/{id}', () => {
  it('applies a request once and answers a repeat with the first answer, marked as replayed', async () => {
    const trip = await newTrip(3);
    const before = await version(trip);
    const key = randomUUID();
    const first = await send('PUT', `/api/v1/user/trips/${trip.id}`, admin, { note: 'Client visit', type: 'business' }, key);
    expect(first.status).toBe(200);
    expect(first.replayed).toBe(false);
    expect(await version(trip)).toBe(before + 1);

    // The same body in another key order is the same request.
    const again = await send('PUT', `/api/v1/user/trips/${trip.id}`, admin, { type: 'business', note: 'Client visit' }, key);
    expect(again.status).toBe(200);
    expect(again.replayed).toBe(true);
    expect(again.text).toBe(first.text);
    expect(await version(trip)).toBe(before + 1);

    // Without the header every request is applied.
    expect((await send('PUT', `/api/v1/user/trips/${trip.id}`, admin, { note: 'Client visit' })).status).toBe(200);
    expect(await version(trip)).toBe(before + 2);
  });

  it('applies concurrent requests with one key once; the others wait (409) or get the answer', async () => {
    const trip = await newTrip(4);
    const before = await version(trip);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => send('PUT', `/api/v1/user/trips/${trip.id}`, admin, { purpose: 'Delivery' }, key)));
    expect(answers.filter((a) => a.status === 200 && !a.replayed)).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 409) expect(answer.body.message).toBe('IdempotencyKeyInProgress');
      else expect(answer.status).toBe(200);
    }
    expect(await version(trip)).toBe(before + 1);
    const later = await send('PUT', `/api/v1/user/trips/${trip.id}`, admin, { purpose: 'Delivery' }, key);
    expect(later).toMatchObject({ status: 200, replayed: true });
    expect(await version(trip)).toBe(before + 1);
  });

  it('answers 422 IdempotencyKeyReused for the key with another body or path, and 422 for a key that is none', async () => {
    const trip = await newTrip(5);
    const key = randomUUID();
    expect((await send('PUT', `/api/v1/user/trips/${trip.id}`, admin, { note: 'One' }, key)).status).toBe(200);
    const before = await version(trip);
    const reused = await send('PUT', `/api/v1/user/trips/${trip.id}`, admin, { note: 'Two' }, key);
    expect(reused.status).toBe(422);
    expect(reused.body.errors).toEqual({ 'idempotency-key': ['IdempotencyKeyReused'] });
    const elsewhere = await newTrip(6);
    expect((await send('PUT', `/api/v1/user/trips/${elsewhere.id}`, admin, { note: 'One' }, key)).body.errors).toEqual({ 'idempotency-key': ['IdempotencyKeyReused'] });
    expect(await version(trip)).toBe(before);

    const bad = await send('PUT', `/api/v1/user/trips/${trip.id}`, admin, { note: 'Three' }, 'short');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ 'idempotency-key': ['InvalidIdempotencyKey'] });
    expect(await version(trip)).toBe(before);
  });

  it("keeps keys per account: another account's request with the same key is its own (and answers 404 for this trip)", async () => {
    const trip = await newTrip(7);
    const key = randomUUID();
    const stranger = await send('PUT', `/api/v1/user/trips/${trip.id}`, other, { note: 'Mine' }, key);
    expect(stranger.status).toBe(404);
    const before = await version(trip);
    const own = await send('PUT', `/api/v1/user/trips/${trip.id}`, admin, { note: 'Mine' }, key);
    expect(own).toMatchObject({ status: 200, replayed: false });
    expect(await version(trip)).toBe(before + 1);
  });

  it('stores a refusal: a repeat after the trip was attested gets the same 200, a new key the refusal', async () => {
    const trip = await newTrip(8);
    const key = randomUUID();
    const first = await send('PUT', `/api/v1/user/trips/${trip.id}`, admin, { type: 'private' }, key);
    expect(first.status).toBe(200);
    const day = localDayOf(trip.startTs, STOCKHOLM);
    expect((await send('POST', '/api/v1/user/trips/attest', admin, { imei: trip.imei, from: day, to: day })).status).toBe(200);
    expect(await send('PUT', `/api/v1/user/trips/${trip.id}`, admin, { type: 'private' }, key)).toMatchObject({ status: 200, replayed: true, text: first.text });

    const refusedKey = randomUUID();
    const refused = await send('PUT', `/api/v1/user/trips/${trip.id}`, admin, { note: 'Too late' }, refusedKey);
    expect(refused.status).toBe(423);
    expect(refused.body.message).toBe('TripIsAttested');
    expect(await send('PUT', `/api/v1/user/trips/${trip.id}`, admin, { note: 'Too late' }, refusedKey)).toMatchObject({ status: 423, replayed: true, text: refused.text });
  });
});

describe('Idempotency-Key on POST /api/v1/user/driver-check-in', () => {
  it('checks in once per key: the repeat answers the first answer (a second check-in would change no trip)', async () => {
    const trip = await newTrip(2);
    const key = randomUUID();
    const body = { imei: trip.imei, driverId: admin.userId, from: new Date(trip.startTs - 60_000).toISOString() };
    const first = await send('POST', '/api/v1/user/driver-check-in', admin, body, key);
    expect(first.status).toBe(200);
    expect(first.body.data?.['tripsChanged']).toBe(1);
    const again = await send('POST', '/api/v1/user/driver-check-in', admin, body, key);
    expect(again).toMatchObject({ status: 200, replayed: true, text: first.text });
  });
});
