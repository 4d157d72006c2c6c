import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandForHost } from '../brand-router';
import { createHttpServer } from './http-server';

let server: Server;
let root: string;
let port: number;

function get(path: string, host = 'localhost', extra: Record<string, string> = {}): Promise<{ status: number; body: string; type: string | undefined; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, ...extra } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, type: res.headers['content-type'], headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  // The web folder, and beside it a file that no path may reach.
  root = mkdtempSync(join(tmpdir(), 'http-server-'));
  const web = join(root, 'web');
  mkdirSync(web);
  writeFileSync(join(web, 'index.html'), '<div id="root"></div>');
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'assets', 'app-1.js'), 'console.log(1)');
  mkdirSync(join(web, 'brands', '3'), { recursive: true });
  writeFileSync(join(web, 'brands', '3', 'index.html'), '<div id="root" data-subsite="3"></div>');
  writeFileSync(join(root, 'secret.txt'), 'secret');
  mkdirSync(join(root, 'basemap', 'fonts'), { recursive: true });
  writeFileSync(join(root, 'basemap', 'basemap.pmtiles'), '0123456789');
  const domains = { 'fleet.example.com': 3 };
  server = createHttpServer({
    routes: [],
    loadHandler: () => Promise.reject(new Error('no handlers')),
    webDir: web,
    brandForHost: (h) => (h.startsWith('plain') ? null : brandForHost(h, domains)),
    health: async () => ({ status: 'ok', parts: {} }),
    openapi: () => ({}),
    basemapDir: join(root, 'basemap'),
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(root, { recursive: true, force: true });
});

describe('embedded HTTP server, web app', () => {
  it("serves each host its brand's page for client-side routes, as the CloudFront Function does", async () => {
    expect((await get('/user/realtime-tracking', 'fleet.example.com:3000')).body).toContain('data-subsite="3"');
    expect((await get('/', 'www.fleet.example.com')).body).toContain('data-subsite="3"');
    const plain = await get('/user/register', 'plain.localhost');
    expect(plain.body).toBe('<div id="root"></div>');
    expect(plain.type).toMatch(/text\/html/);
  });

  it('serves files with their type and answers missing files with 404, not the app', async () => {
    const js = await get('/assets/app-1.js');
    expect(js.status).toBe(200);
    expect(js.type).toMatch(/javascript/);
    expect((await get('/assets/missing.js')).status).toBe(404);
  });

  it('never serves a file outside the web folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const res = await get(path);
      expect(res.body).not.toContain('secret');
    }
  });

  it('answers unknown API paths as API Gateway does', async () => {
    const res = await get('/api/v1/nothing');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ message: 'Not Found' });
  });
});

describe('embedded HTTP server, the base map folder', () => {
  it('serves the archive in byte ranges, as S3 behind CloudFront does', async () => {
    const part = await get('/basemap/basemap.pmtiles', 'localhost', { range: 'bytes=2-5' });
    expect([part.status, part.body, part.headers['content-range'], part.headers['accept-ranges']]).toEqual([206, '2345', 'bytes 2-5/10', 'bytes']);
    expect(part.type).toBe('application/vnd.pmtiles');
    expect((await get('/basemap/basemap.pmtiles', 'localhost', { range: 'bytes=7-' })).body).toBe('789');
    expect((await get('/basemap/basemap.pmtiles', 'localhost', { range: 'bytes=-3' })).body).toBe('789');
    expect((await get('/basemap/basemap.pmtiles', 'localhost', { range: 'bytes=5-100' })).body).toBe('56789');
    const whole = await get('/basemap/basemap.pmtiles');
    expect([whole.status, whole.body]).toEqual([200, '0123456789']);
    for (const range of ['bytes=10-', 'bytes=5-2', 'bytes=0-1,4-5', 'items=0-1', 'bytes=-']) {
      const refused = await get('/basemap/basemap.pmtiles', 'localhost', { range });
      expect([refused.status, refused.headers['content-range']], range).toEqual([416, 'bytes */10']);
    }
  });

  it('answers 404 for what the folder does not hold, and never serves a file outside it', async () => {
    for (const path of ['/basemap/missing.pmtiles', '/basemap/fonts', '/basemap/', '/basemap/../secret.txt', '/basemap/%2e%2e/secret.txt', '/basemap/..%2fsecret.txt']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).not.toContain('secret');
    }
  });
});

describe('embedded HTTP server, API failures', () => {
  it('answers a failure outside the middleware 500 SomethingWentWrong without its detail', async () => {
    const route = { operationId: 't', method: 'GET', path: '/api/v1/t/{id}', capability: 'dev', file: 't', access: 'public', summary: 't' } as const;
    const failing = createHttpServer({
      routes: [route],
      loadHandler: () => Promise.reject(new RangeError('Invalid time value at /var/task/index.js:12')),
      webDir: tmpdir(),
      brandForHost: () => null,
      health: async () => ({ status: 'ok', parts: {} }),
      openapi: () => ({}),
    });
    await new Promise<void>((r) => failing.listen(0, '127.0.0.1', () => r()));
    const saved = port;
    port = (failing.address() as AddressInfo).port;
    const originalError = console.error;
    console.error = () => undefined;
    try {
      // A malformed escape in the path parameter gets as far as the handler too.
      for (const path of ['/api/v1/t/1', '/api/v1/t/%ff']) {
        const answer = await get(path);
        expect(answer.status, path).toBe(500);
        expect(JSON.parse(answer.body), path).toEqual({ success: false, message: 'SomethingWentWrong', errors: 'SomethingWentWrong' });
      }
    } finally {
      console.error = originalError;
      port = saved;
      await new Promise<void>((r) => failing.close(() => r()));
    }
  });
});
