/**
 * Web vitals on the embedded runtime: a browser's report before login is accepted and shows in
 * support's percentiles for its route; bad reports get their 422 keys (a concrete address, a
 * value out of range, a rating that does not match, unknown fields, too many measurements), a
 * body over the cap 413 before it is read, too many reports from one client 429 with retry-after;
 * concurrent reports all count; the table keeps no address or user; and only support staff read
 * the percentiles.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../functions/platform/db';
import { VITALS_LIMIT } from '../../functions/vitals/post-web-vitals';
import type { VitalSummary, WebVitalsReport } from '../../shared/schemas/web-vitals';
import type { VitalEntry, VitalsBatch } from '../../shared/web-vitals';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoSupportUser } from '../../infra/local/seed';
import { callAs, callerFor, demoCallers, type Caller } from '../support/api-caller';
import { call } from '../support/http';
import { startRuntime } from '../support/runtime';

let rt: EmbeddedRuntime;
let support: Caller;
let admin: Caller;
let user: Caller;

const PATH = '/api/v1/web-vitals';
const entry = (over: Partial<VitalEntry> = {}): VitalEntry => ({ name: 'LCP', value: 1800, rating: 'good', route: '/user/fleet-overview', navigationType: 'navigate', ...over });
const batch = (entries: VitalEntry[], over: Partial<VitalsBatch> = {}): VitalsBatch => ({ brand: 2, device: 'phone', entries, ...over });
/** Each test sends from its own loopback address, so the per-client limit of one never meets another. */
const post = (body: unknown, from: string) => call<{ success: boolean; data?: { accepted: number }; errors?: Record<string, string[]> | string }>(rt.url, 'POST', PATH, body, { from });

async function report(period = '24h'): Promise<WebVitalsReport> {
  const r = await callAs<WebVitalsReport>(rt.url, 'GET', `/api/v1/support/web-vitals?period=${period}`, support);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as WebVitalsReport;
}
const row = (r: WebVitalsReport, name: string, route: string | null): VitalSummary | undefined => r.summaries.find((s) => s.name === name && s.route === route);

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user } = await demoCallers());
  support = await callerFor(demoSupportUser.username, DEMO_PASSWORD);
});
afterAll(async () => {
  await rt?.stop();
});

describe('web vitals', () => {
  it('accepts a report without login and shows it in the percentiles of its route and of all routes', async () => {
    const sent = await post(
      batch([
        entry({ name: 'LCP', value: 1200, rating: 'good', route: '/user/check-in/:code' }),
        entry({ name: 'LCP', value: 3000, rating: 'needs-improvement', route: '/user/check-in/:code' }),
        entry({ name: 'LCP', value: 9000, rating: 'poor', route: '/user/check-in/:code' }),
        entry({ name: 'CLS', value: 0.31, rating: 'poor', route: '/user/check-in/:code', navigationType: 'reload' }),
        entry({ name: 'TTFB', value: 90, rating: 'good', route: '*' }),
      ]),
      '127.0.0.11',
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toEqual({ accepted: 5 });

    const r = await report();
    const lcp = row(r, 'LCP', '/user/check-in/:code');
    expect(lcp).toMatchObject({ count: 3, good: 1, needsImprovement: 1, poor: 1 });
    // Read from 5 % bins: within 2.5 % of the measured values.
    expect(Math.abs((lcp?.p50 ?? 0) - 3000)).toBeLessThanOrEqual(75);
    expect(Math.abs((lcp?.p95 ?? 0) - 9000)).toBeLessThanOrEqual(225);
    expect(row(r, 'CLS', '/user/check-in/:code')).toMatchObject({ count: 1, poor: 1 });
    expect(Math.abs((row(r, 'CLS', '/user/check-in/:code')?.p75 ?? 0) - 0.31)).toBeLessThanOrEqual(0.01);
    expect(row(r, 'TTFB', '*')).toMatchObject({ count: 1, good: 1 });
    expect(row(r, 'LCP', null)?.count).toBeGreaterThanOrEqual(3);
    // Every metric has its all-routes row, even without measurements.
    expect(row(r, 'INP', null)).toBeDefined();
    expect(Date.parse(r.to) - Date.parse(r.from)).toBeGreaterThan(23 * 3600_000);
    expect((await report('7d')).period).toBe('7d');
  });

  it('refuses what is not a measurement of a route pattern, with a key per field', async () => {
    const from = '127.0.0.12';
    const refused = async (body: unknown) => {
      const r = await post(body, from);
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      return r.body.errors as Record<string, string[]>;
    };
    expect(await refused(batch([entry({ route: '/user/check-in/ABC123' })]))).toEqual({ 'entries.0.route': ['UnknownRoute'] });
    expect(await refused(batch([entry({ route: '/user/fleet-overview?unit=123' })]))).toEqual({ 'entries.0.route': ['UnknownRoute'] });
    expect(await refused(batch([entry({ value: 130_000, rating: 'poor' })]))).toEqual({ 'entries.0.value': ['VitalValueOutOfRange'] });
    expect(await refused(batch([entry({ value: -1 })]))).toEqual({ 'entries.0.value': ['VitalValueOutOfRange'] });
    expect(await refused(batch([entry({ name: 'CLS', value: 11, rating: 'poor' })]))).toEqual({ 'entries.0.value': ['VitalValueOutOfRange'] });
    expect(await refused(batch([entry({ value: 1800, rating: 'poor' })]))).toEqual({ 'entries.0.rating': ['VitalRatingMismatch'] });
    expect(await refused(batch([entry({ name: 'FID' as 'LCP' })]))).toMatchObject({ 'entries.0.name': ['UnknownVital'] });
    expect(await refused(batch([]))).toEqual({ entries: ['VitalsBatchSize'] });
    expect(await refused(batch(Array.from({ length: 9 }, () => entry())))).toEqual({ entries: ['VitalsBatchSize'] });
    expect(await refused(batch([entry()], { brand: 8 }))).toEqual({ brand: ['InvalidSubsite'] });
    // Nothing that could name a person rides along.
    expect(await refused({ ...batch([entry()]), userId: 'u-1' })).toEqual({ body: ['UnknownField'] });
    expect(await refused(batch([{ ...entry(), url: 'https://portal.example/user/check-in/ABC123' } as VitalEntry]))).toEqual({ 'entries.0': ['UnknownField'] });
  });

  it('answers 413 for a body over 4096 bytes before reading it', async () => {
    const r = await post({ ...batch([entry()]), padding: 'x'.repeat(5000) }, '127.0.0.13');
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ success: false, errors: 'PayloadTooLarge' });
  });

  it('limits each client to its reports per window, other clients unaffected', async () => {
    const from = '127.0.0.14';
    const body = batch([entry({ route: '/user/alerts' })]);
    for (let sent = 0; sent < VITALS_LIMIT; sent += 20) {
      const answers = await Promise.all(Array.from({ length: Math.min(20, VITALS_LIMIT - sent) }, () => post(body, from)));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    }
    const over = await post(body, from);
    expect(over.status).toBe(429);
    expect(over.body.errors).toBe('TooManyRequests');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post(body, '127.0.0.15')).status).toBe(200);
  });

  it('counts every one of many reports sent at once', async () => {
    const route = '/administration/rfid-cards';
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => {
        // 100, 120, ... 580 ms: good up to 200, poor above 500.
        const value = 100 + i * 20;
        return post(batch([entry({ name: 'INP', value, rating: value <= 200 ? 'good' : value <= 500 ? 'needs-improvement' : 'poor', route })]), '127.0.0.16');
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(row(await report(), 'INP', route)).toMatchObject({ count: 25, good: 6, needsImprovement: 15, poor: 4 });
  });

  it('keeps only hour, metric, route pattern and counts: no address, user or brand', async () => {
    const out = await dynamo().send(new ScanCommand({ TableName: tableName('webVitals') }));
    expect(out.Items?.length).toBeGreaterThan(0);
    for (const item of out.Items ?? []) {
      for (const attr of Object.keys(item)) expect(attr).toMatch(/^(day|sk|metric|route|n|good|ni|poor|expiresAt|b\d+)$/);
    }
  });

  it('shows the percentiles to support staff only', async () => {
    const anonymous = await callAs(rt.url, 'GET', '/api/v1/support/web-vitals', null);
    expect(anonymous.status).toBe(401);
    for (const who of [user, admin]) {
      const r = await callAs(rt.url, 'GET', '/api/v1/support/web-vitals', who);
      expect(r.status).toBe(403);
      expect(r.body.errors).toBe('NoAccessToSupportPages');
    }
    const bad = await callAs(rt.url, 'GET', '/api/v1/support/web-vitals?period=30d', support);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ period: ['InvalidWebVitalsPeriod'] });
  });
});
