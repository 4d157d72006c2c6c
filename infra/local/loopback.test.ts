/**
 * The embedded runtime stays on this machine unless told otherwise: HTTP (with the MQTT WebSocket)
 * and the MQTT TCP listener bind to 127.0.0.1 by default, and the outbox, which holds reset links
 * and 2FA codes, answers loopback clients only even when HOST=0.0.0.0 opens the rest.
 *
 * A client "from the network" is this machine connecting to its own non-loopback address: the
 * kernel then gives the connection that address as its source, as it would a neighbour's.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { getPorts } from '../../functions/platform/container';
import { mapConfigFor } from '../../functions/tracking/get-map-config';
import { contentSecurityPolicy, originOf } from '../content-security-policy';
import { exposureWarning } from './exposure';
import { startEmbeddedRuntime, type EmbeddedRuntime, type RuntimeOptions } from './runtime';
import { fileDynamo } from '../../test/support/file-dynamo';

/** The first non-loopback IPv4 address of this machine, if it has one. */
const networkAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
const NO_NETWORK_ADDRESS = 'this machine has no non-loopback IPv4 address (os.networkInterfaces()), so no client can come from the network';

function start(options: Partial<RuntimeOptions> = {}): Promise<EmbeddedRuntime> {
  return startEmbeddedRuntime({
    port: 0,
    mqttPort: 0,
    dataDir: null,
    dynamo: fileDynamo(),
    tablePrefix: `t${randomBytes(4).toString('hex')}-`,
    seed: false,
    ...options,
  });
}

const portOf = (url: string) => Number(new URL(url).port);

/** Whether a TCP connection to host:port is accepted, or the error code that refused it. */
function tcp(host: string, port: number): Promise<'connected' | string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 3000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('ETIMEDOUT');
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

function webSocket(url: string): Promise<'open' | string> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, 'mqtt');
    ws.once('open', () => {
      ws.terminate();
      resolve('open');
    });
    ws.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

function get(host: string, port: number, path: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('npm start without HOST', () => {
  let runtime: EmbeddedRuntime;
  beforeAll(async () => {
    runtime = await start();
  });
  afterAll(() => runtime?.stop());

  it('listens on 127.0.0.1 only: HTTP, the MQTT WebSocket and MQTT over TCP', async ({ skip }) => {
    expect(new URL(runtime.url).hostname).toBe('127.0.0.1');
    const httpPort = portOf(runtime.url);
    const mqttPort = portOf(runtime.mqttUrl);
    expect(await tcp('127.0.0.1', httpPort)).toBe('connected');
    expect(await tcp('127.0.0.1', mqttPort)).toBe('connected');
    expect(await webSocket(runtime.wsUrl)).toBe('open');
    const client = await mqtt.connectAsync(runtime.mqttUrl, { clientId: 'loopback-check', reconnectPeriod: 0 });
    await client.endAsync();

    if (!networkAddress) return skip(NO_NETWORK_ADDRESS);
    expect(await tcp(networkAddress, httpPort)).toBe('ECONNREFUSED');
    expect(await tcp(networkAddress, mqttPort)).toBe('ECONNREFUSED');
    expect(await webSocket(`ws://${networkAddress}:${httpPort}/mqtt`)).toBe('ECONNREFUSED');
  });

  it('says nothing about exposure for a loopback HOST', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) expect(exposureWarning(host, 1883), host).toBeNull();
  });
});

describe('npm start with HOST=0.0.0.0', () => {
  let runtime: EmbeddedRuntime;
  let httpPort: number;
  beforeAll(async () => {
    runtime = await start({ host: '0.0.0.0' });
    httpPort = portOf(runtime.url);
    await getPorts().mailer.send({ to: 'anna@example.se', subject: 'Reset your password', text: 'https://portal/reset?token=secret', html: '<p>secret</p>' });
  });
  afterAll(() => runtime?.stop());

  it('warns that the API and broker are open while the outbox stays loopback-only', () => {
    const warning = exposureWarning('0.0.0.0', 1883) ?? '';
    expect(warning).toMatch(/HOST=0\.0\.0\.0 exposes/);
    expect(warning).toMatch(/MQTT\s+broker \(port 1883/);
    expect(warning).toMatch(/password-reset links and 2FA codes/);
    expect(warning).toMatch(/stays loopback-only and answers 403/);
    expect(exposureWarning('192.168.1.20', 1883)).toMatch(/HOST=192\.168\.1\.20/);
  });

  it('serves the outbox API to 127.0.0.1 and answers 403 to the network address', async ({ skip }) => {
    const local = await get('127.0.0.1', httpPort, '/api/dev/outbox?to=anna@example.se');
    expect(local.status).toBe(200);
    expect(JSON.parse(local.body)).toMatchObject({ success: true, data: [{ subject: 'Reset your password', text: 'https://portal/reset?token=secret' }] });

    if (!networkAddress) return skip(NO_NETWORK_ADDRESS);
    const remote = await get(networkAddress, httpPort, '/api/dev/outbox?to=anna@example.se');
    expect(remote.status).toBe(403);
    expect(JSON.parse(remote.body)).toEqual({ success: false, message: 'Forbidden', errors: 'Forbidden' });
    expect(remote.body).not.toContain('secret');
    // Other routes are open to the network: HOST did expose the API.
    expect((await get(networkAddress, httpPort, '/api/health')).status).toBe(200);
  });

  it('serves the outbox page to 127.0.0.1 and answers 403 to the network address, whatever the case of the path', async ({ skip }) => {
    const local = await get('127.0.0.1', httpPort, '/dev/outbox');
    expect(local.status).toBe(200);
    expect(local.body).toContain('<div id="root"');

    if (!networkAddress) return skip(NO_NETWORK_ADDRESS);
    for (const path of ['/dev/outbox', '/DEV/Outbox', '/dev/outbox/', '/dev']) {
      const remote = await get(networkAddress, httpPort, path);
      expect(remote.status, path).toBe(403);
      expect(remote.body).not.toContain('<div id="root"');
    }
    // The rest of the web app is served to the network, with the same headers as to this machine.
    const page = await get(networkAddress, httpPort, '/user/realtime-tracking');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(local.headers['content-security-policy']);
  });

  it('opens MQTT over TCP and WebSocket to the network address, as HOST asked', async ({ skip }) => {
    if (!networkAddress) return skip(NO_NETWORK_ADDRESS);
    expect(await tcp(networkAddress, portOf(runtime.mqttUrl))).toBe('connected');
    expect(await webSocket(`ws://${networkAddress}:${httpPort}/mqtt`)).toBe('open');
  });

  it('sends the CSP on the pages, with the base maps the server offers and the live channel at the URL the handlers hand out', async () => {
    const page = await get('127.0.0.1', httpPort, '/');
    const offered = mapConfigFor(process.env['MAP_STYLE_URL'] || undefined);
    expect(page.headers['content-security-policy']).toBe(
      contentSecurityPolicy({
        mapStyleUrl: offered.styleUrl,
        mapOrigins: (offered.styles ?? []).map((style) => originOf(style.url)),
        liveOrigin: new URL(runtime.wsUrl).origin,
      }),
    );
    expect(page.headers['content-security-policy']).toMatch(new RegExp(`connect-src 'self' blob: [^;]*ws://localhost:${httpPort}(;|$)`));
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});
