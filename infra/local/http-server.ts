/**
 * The embedded runtime's HTTP server: `/api/*` from the route manifest into the handlers, the
 * built web app with the SPA fallback (per brand, as the CloudFront Function does), health and
 * the OpenAPI document. The web app's files carry the security headers CloudFront adds on AWS.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { BASEMAP_PATH } from '../../shared/basemap';
import { isLoopbackAddress } from '../../shared/network';
import type { RouteDef } from '../../shared/routes';
import { compileRoutes, lambdaContext, matchRoute, toApiEvent } from './api-event';

export type ApiHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export interface HttpServerOptions {
  routes: readonly RouteDef[];
  loadHandler(route: RouteDef): Promise<ApiHandler>;
  webDir: string;
  /** Brand by host name, as configured for the CloudFront Function; null serves the plain index.html. */
  brandForHost(host: string): number | null;
  health(): Promise<{ status: 'ok' | 'starting' | 'failing'; parts: Record<string, boolean> }>;
  openapi(): unknown;
  /** Largest accepted request body; API Gateway's own limit is 10 MB, ours is lower. */
  maxBodyBytes?: number;
  /**
   * The Content-Security-Policy of the web app's files (infra/content-security-policy.ts), asked
   * per response because the live channel's port is known only once the server listens.
   */
  contentSecurityPolicy?(): string;
  /**
   * The self-hosted base map's folder (a Protomaps archive with its fonts and sprites), served under
   * BASEMAP_PATH with byte ranges, as CloudFront serves the stack's basemap bucket.
   */
  basemapDir?: string | null;
  /** Page routes only this machine may open (the dev outbox); others get 403. */
  loopbackOnlyPage?(pathname: string): boolean;
  /**
   * Uploaded files (unit pictures): under `prefix`, `PUT <token>` stores the body and `GET <token>`
   * answers the file, as S3's presigned URLs do on AWS (functions/platform/adapters/embedded/file-store.ts).
   */
  files?: {
    readonly prefix: string;
    upload(token: string, contentType: string | undefined, bytes: Buffer): Promise<boolean>;
    view(token: string): Promise<{ bytes: Uint8Array; contentType: string; disposition: string } | null>;
  };
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.pbf': 'application/x-protobuf',
  '.webmanifest': 'application/manifest+json',
  '.pmtiles': 'application/vnd.pmtiles',
};

/**
 * The one range of a `Range: bytes=...` header within a file of `size` bytes: `undefined` for none
 * (the whole file), null for a range the file cannot satisfy or a form not served (several ranges).
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | null | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    // The last N bytes.
    const suffix = Number(match[2]);
    return suffix > 0 && size > 0 ? { start: Math.max(0, size - suffix), end: size - 1 } : null;
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start < size && start <= end ? { start, end } : null;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolveBody(tooLarge ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function serveFile(req: IncomingMessage, res: ServerResponse, file: string, immutable: boolean): void {
  const stat = statSync(file);
  res.writeHead(200, {
    'content-type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': stat.size,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  if (req.method === 'HEAD') res.end();
  else createReadStream(file).pipe(res);
}

/** A file in byte ranges, as S3 behind CloudFront answers: 206 with the range asked for, 416 for one past the end. */
function serveRanges(req: IncomingMessage, res: ServerResponse, file: string): void {
  const size = statSync(file).size;
  const range = byteRange(req.headers.range, size);
  const headers = {
    'content-type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'accept-ranges': 'bytes',
    'cache-control': 'public, max-age=86400',
    'x-content-type-options': 'nosniff',
  };
  if (range === null) {
    res.writeHead(416, { ...headers, 'content-range': `bytes */${size}` });
    return void res.end();
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  res.writeHead(range ? 206 : 200, { ...headers, 'content-length': size === 0 ? 0 : end - start + 1, ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}) });
  if (req.method === 'HEAD' || size === 0) res.end();
  else createReadStream(file, { start, end }).pipe(res);
}

/**
 * What CloudFront's response headers policy adds on AWS, less HSTS: this server speaks plain HTTP,
 * where browsers ignore it.
 */
function setSecurityHeaders(res: ServerResponse, csp: string | undefined): void {
  if (csp) res.setHeader('content-security-policy', csp);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('referrer-policy', 'strict-origin-when-cross-origin');
}

export function createHttpServer(options: HttpServerOptions): Server {
  const compiled = compileRoutes(options.routes);
  const webRoot = resolve(options.webDir);
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (url.pathname === '/api/health') {
      const report = await options.health();
      return sendJson(res, report.status === 'ok' ? 200 : 503, report);
    }
    if (url.pathname === '/api/docs' || url.pathname === '/api/docs/openapi.json') {
      return sendJson(res, 200, options.openapi());
    }
    if (options.files && url.pathname.startsWith(options.files.prefix)) return handleFile(req, res, options.files, url.pathname.slice(options.files.prefix.length));
    const match = matchRoute(compiled, req.method ?? 'GET', url.pathname);
    // API Gateway's own answer for a route it does not have.
    if (!match) return sendJson(res, 404, { message: 'Not Found' });
    const body = await readBody(req, maxBody);
    if (body === null) return sendJson(res, 413, { success: false, message: 'PayloadTooLarge', errors: 'PayloadTooLarge' });
    const event = toApiEvent(req, url, body, match);
    const handler = await options.loadHandler(match.compiled.route);
    const result = await handler(event, lambdaContext(`local-${match.compiled.route.capability}`, event.requestContext.requestId));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
    if (result.cookies?.length) res.setHeader('set-cookie', result.cookies);
    res.writeHead(result.statusCode ?? 200, headers);
    res.end(result.isBase64Encoded && result.body ? Buffer.from(result.body, 'base64') : (result.body ?? ''));
  }

  /** As S3 answers a presigned URL: 200, 403 for a token that does not allow this, 413 past the body limit. */
  async function handleFile(req: IncomingMessage, res: ServerResponse, files: NonNullable<HttpServerOptions['files']>, token: string): Promise<void> {
    const forbidden = () => sendJson(res, 403, { success: false, message: 'Forbidden', errors: 'Forbidden' });
    if (req.method === 'PUT') {
      const body = await readBody(req, maxBody);
      if (body === null) return sendJson(res, 413, { success: false, message: 'PayloadTooLarge', errors: 'PayloadTooLarge' });
      if (!(await files.upload(token, req.headers['content-type'], body))) return forbidden();
      res.writeHead(200, { 'cache-control': 'no-store' });
      return void res.end();
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD, PUT' });
      return void res.end();
    }
    const file = await files.view(token);
    if (!file) return forbidden();
    res.writeHead(200, {
      'content-type': file.contentType,
      'content-length': file.bytes.length,
      'cache-control': 'private, max-age=600',
      'x-content-type-options': 'nosniff',
      'content-disposition': file.disposition,
    });
    res.end(req.method === 'HEAD' ? undefined : Buffer.from(file.bytes));
  }

  function handleStatic(req: IncomingMessage, res: ServerResponse, url: URL): void {
    setSecurityHeaders(res, options.contentSecurityPolicy?.());
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      return void res.end();
    }
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400);
      return void res.end();
    }
    if (path.startsWith(BASEMAP_PATH)) {
      const root = options.basemapDir ? resolve(options.basemapDir) : null;
      const file = root ? normalize(join(root, path.slice(BASEMAP_PATH.length))) : null;
      if (root && file?.startsWith(root + sep) && existsSync(file) && statSync(file).isFile()) return serveRanges(req, res, file);
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('Not found');
    }
    const candidate = normalize(join(webRoot, path));
    const inside = candidate === webRoot || candidate.startsWith(webRoot + sep);
    if (inside && existsSync(candidate) && statSync(candidate).isFile()) {
      return serveFile(req, res, candidate, candidate.startsWith(join(webRoot, 'assets') + sep));
    }
    if (extname(path)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('Not found');
    }
    // The socket's address, not a header: a client cannot claim to be this machine.
    if (options.loopbackOnlyPage?.(path) && !isLoopbackAddress(req.socket.remoteAddress)) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end('Forbidden: this page is served to this machine only.');
    }
    // A client-side route: the brand's copy of index.html, as the CloudFront Function serves it.
    const brand = options.brandForHost(req.headers.host ?? '');
    const brandIndex = brand === null ? null : join(webRoot, 'brands', String(brand), 'index.html');
    const index = brandIndex && existsSync(brandIndex) ? brandIndex : join(webRoot, 'index.html');
    if (!existsSync(index)) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('The web app is not built. Run `npm run build:web` (npm start does it for you).');
    }
    serveFile(req, res, index, false);
  }

  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const work = url.pathname === '/api' || url.pathname.startsWith('/api/') ? handleApi(req, res, url) : Promise.resolve(handleStatic(req, res, url));
    work.catch((error: unknown) => {
      console.error('embedded http error', error);
      if (!res.headersSent) sendJson(res, 500, { success: false, message: 'SomethingWentWrong', errors: 'SomethingWentWrong' });
      else res.destroy();
    });
  });
}
