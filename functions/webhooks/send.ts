/**
 * One attempt of a delivery: a POST of the body to the endpoint, connected to the address the
 * policy checked (endpoint-policy.ts), never to what a second DNS lookup might answer. TLS still
 * verifies the certificate against the URL's host name (SNI and the name check use the host).
 * At most `timeoutMs` from connect to the last byte read; at most `MAX_BODY_BYTES` of the answer
 * are read and its first `EXCERPT_CHARS` characters kept. Redirects are not followed (a 3xx is a
 * failed attempt), so a redirect cannot lead a delivery past the check either.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './endpoint-policy';

export const SEND_TIMEOUT_MS = 10_000;
export const MAX_BODY_BYTES = 64 * 1024;
export const EXCERPT_CHARS = 500;
export const USER_AGENT = 'TrackingPortal-Webhooks/1';

export type AttemptResult =
  | { ok: boolean; status: number; durationMs: number; excerpt: string }
  | { ok: false; error: 'WebhookTimeout' | 'WebhookConnectionFailed'; durationMs: number };

/** A lookup that answers the checked address whatever the host name. */
function pinned(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options && typeof options === 'object' && options.all) {
      (callback as unknown as (err: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    } else {
      callback(null, target.address, target.family);
    }
  };
}

export function postDelivery(
  url: URL,
  target: ResolvedAddress,
  body: string,
  headers: Readonly<Record<string, string>>,
  options: { timeoutMs?: number; ca?: readonly string[] | undefined } = {},
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned(target),
        headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, 'content-length': String(Buffer.byteLength(body)), ...headers },
        agent: false,
        ...(options.ca ? { ca: [...options.ca] } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const status = response.statusCode ?? 0;
          const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
          finish({ ok: status >= 200 && status < 300, status, durationMs: elapsed(), excerpt });
        };
        response.on('data', (chunk: Buffer) => {
          if (size < MAX_BODY_BYTES) chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size));
          size += chunk.length;
          // Enough read: the status is known and the rest is not kept.
          if (size >= MAX_BODY_BYTES) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, error: 'WebhookTimeout', durationMs: elapsed() });
      request.destroy();
    }, timeoutMs);
    request.on('error', () => finish({ ok: false, error: 'WebhookConnectionFailed', durationMs: elapsed() }));
    request.end(body);
  });
}
