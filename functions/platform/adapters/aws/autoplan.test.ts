import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetSecretValueCommand, ResourceNotFoundException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AutoplanNoResponseError, AutoplanNotConfiguredError, AutoplanRejectedError, type AutoplanSubmission } from '../../ports';
import { createHttpsAutoplan } from './autoplan';

interface Seen {
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: unknown;
}

const secrets = mockClient(SecretsManagerClient);
let server: Server;
let baseUrl: string;
let seen: Seen[];
let answer: { status: number; body: string; delayMs?: number };

beforeEach(async () => {
  secrets.reset();
  seen = [];
  answer = { status: 200, body: JSON.stringify({ reference: 'AP-77' }) };
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      seen.push({ url: req.url, headers: req.headers, body: JSON.parse(raw || 'null') });
      setTimeout(() => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body);
      }, answer.delayMs ?? 0);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

const submission: AutoplanSubmission = {
  accountId: 'acc-1',
  imei: '356938035643809',
  month: '2026-10',
  registrationNumber: 'ABC123',
  odometerStart: 12_000.5,
  odometerEnd: 13_234.25,
  trips: 41,
  distanceKm: 1233.75,
  businessKm: 1000,
  privateKm: 200.5,
  otherKm: 33.25,
  idempotencyKey: 'acc-1:356938035643809:2026-10',
};

function withSecret(value: unknown) {
  secrets.on(GetSecretValueCommand).resolves({ SecretString: JSON.stringify(value) });
}
const adapter = (options: { timeoutMs?: number } = {}) =>
  createHttpsAutoplan({ client: new SecretsManagerClient({ region: 'eu-north-1' }), secretPrefix: 'Portal/autoplan/', allowLoopbackHttp: true, ...options });

describe('Autoplan over HTTPS', () => {
  it("reads the account's secret under the prefix and posts the month's figures with its token and the idempotency key", async () => {
    withSecret({ url: `${baseUrl}/mileage`, token: 'tok-secret', customerNumber: 'C-9' });
    const outcome = await adapter().report(submission);
    expect(outcome).toEqual({ status: 'accepted', reference: 'AP-77' });
    expect(secrets.commandCalls(GetSecretValueCommand).map((c) => c.args[0].input)).toEqual([{ SecretId: 'Portal/autoplan/acc-1' }]);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('/mileage');
    expect(seen[0]?.headers['authorization']).toBe('Bearer tok-secret');
    expect(seen[0]?.headers['idempotency-key']).toBe('acc-1:356938035643809:2026-10');
    expect(seen[0]?.body).toEqual({
      customerNumber: 'C-9',
      registrationNumber: 'ABC123',
      period: '2026-10',
      odometerStartKm: 12_000.5,
      odometerEndKm: 13_234.25,
      trips: 41,
      totalKm: 1233.75,
      businessKm: 1000,
      privateKm: 200.5,
      otherKm: 33.25,
    });
  });

  it('reads a secret once while it is fresh', async () => {
    withSecret({ url: `${baseUrl}/m`, token: 't' });
    const autoplan = adapter();
    await autoplan.report(submission);
    await autoplan.report({ ...submission, month: '2026-11' });
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });

  it("maps Autoplan's refusals to the spec's outcomes", async () => {
    withSecret({ url: `${baseUrl}/m`, token: 't' });
    answer = { status: 422, body: JSON.stringify({ code: 'NoLicencePlateMatch' }) };
    await expect(adapter().report(submission)).resolves.toEqual({ status: 'noLicencePlateMatch' });
    answer = { status: 404, body: JSON.stringify({ code: 'ServiceCar' }) };
    await expect(adapter().report(submission)).resolves.toEqual({ status: 'serviceCar' });
  });

  it('is "no response" on a time-out, a 5xx and a connection refused; a rejection on any other answer', async () => {
    withSecret({ url: `${baseUrl}/m`, token: 't' });
    answer = { status: 200, body: '{}', delayMs: 500 };
    await expect(adapter({ timeoutMs: 50 }).report(submission)).rejects.toBeInstanceOf(AutoplanNoResponseError);
    answer = { status: 503, body: 'busy' };
    await expect(adapter().report(submission)).rejects.toBeInstanceOf(AutoplanNoResponseError);
    answer = { status: 400, body: JSON.stringify({ code: 'BadPeriod' }) };
    await expect(adapter().report(submission)).rejects.toBeInstanceOf(AutoplanRejectedError);
    withSecret({ url: 'http://127.0.0.1:1/m', token: 't' });
    await expect(adapter().report(submission)).rejects.toBeInstanceOf(AutoplanNoResponseError);
  });

  it('is "not configured" without a secret, with a malformed one or a non-https endpoint, and never echoes the token', async () => {
    secrets.on(GetSecretValueCommand).rejects(new ResourceNotFoundException({ message: 'no such secret', $metadata: {} }));
    await expect(adapter().report(submission)).rejects.toBeInstanceOf(AutoplanNotConfiguredError);
    withSecret({ url: 'not a url', token: 'tok-secret' });
    const malformed = adapter().report(submission);
    await expect(malformed).rejects.toBeInstanceOf(AutoplanNotConfiguredError);
    await expect(adapter().report(submission)).rejects.not.toThrow(/tok-secret/);
    withSecret({ url: 'http://autoplan.example.se/m', token: 't' });
    await expect(adapter().report(submission)).rejects.toThrow(/not https/);
    expect(seen).toHaveLength(0);
  });

  it('refuses to run without the secret prefix the stack sets', async () => {
    const autoplan = createHttpsAutoplan({ client: new SecretsManagerClient({ region: 'eu-north-1' }), secretPrefix: undefined });
    await expect(autoplan.report(submission)).rejects.toThrow(/AUTOPLAN_SECRET_PREFIX/);
  });
});
