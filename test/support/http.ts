/**
 * HTTP calls to the embedded runtime. The API tests make every request through `call` or
 * `apiFetch` (lint forbids the global fetch in test/api), and both check each successful answer
 * of a manifest route against the route's response schema (test/support/response-contract.ts).
 *
 * `call` sends from a chosen client address. The whole of 127.0.0.0/8 is loopback on Linux, so a
 * test can play a second client (127.0.0.2) on the same machine: the runtime sees the socket's
 * address, as API Gateway sees the viewer's.
 */
import http from 'node:http';
import { checkAnswer } from './response-contract';

export interface CallOptions {
  token?: string;
  /** The client's own address; default 127.0.0.1. */
  from?: string;
  /** `name=value` pairs sent in one Cookie header. */
  cookies?: readonly string[];
}

export interface CallResult<B> {
  status: number;
  body: B;
  headers: http.IncomingHttpHeaders;
  /** The Set-Cookie values of the answer. */
  setCookies: string[];
}

export function call<B = Record<string, unknown>>(baseUrl: string, method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<CallResult<B>> {
  const url = new URL(path, baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        localAddress: options.from ?? '127.0.0.1',
        headers: {
          ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.cookies?.length ? { cookie: options.cookies.join('; ') } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            checkAnswer(method, url, res.statusCode ?? 0, text);
            resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : null) as B, headers: res.headers, setCookies: res.headers['set-cookie'] ?? [] });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** `fetch`, with a successful answer of a manifest route checked against the route's response schema. */
export async function apiFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  const res = await fetch(url, init);
  checkAnswer(init?.method ?? 'GET', url, res.status, await res.clone().text());
  return res;
}

/** The `name=value` part of a Set-Cookie value, as a browser sends it back. */
export const cookiePair = (setCookie: string): string => setCookie.split(';')[0]?.trim() ?? '';
