import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOneSignalPush, PushDeliveryError, PushNotConfiguredError } from './push';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: unknown;
}

let server: Server;
let baseUrl: string;
let seen: Seen[];
let answer: { status: number; body: string };

beforeEach(async () => {
  seen = [];
  answer = { status: 200, body: JSON.stringify({ id: 'n-1', external_id: null }) };
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body: JSON.parse(raw || 'null') });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.close();
  await once(server, 'close');
});

const message = { to: 'sub-123', title: 'Larm', text: 'Enheten lämnade zonen', data: { imei: '356307042441013' } };

describe('OneSignal push', () => {
  it('posts the notification to the subscription with the app id and REST key', async () => {
    await createOneSignalPush({ appId: 'app-1', apiKey: 'rest-key', baseUrl }).send(message);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/notifications');
    expect(request?.headers['authorization']).toBe('Key rest-key');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({
      app_id: 'app-1',
      target_channel: 'push',
      include_subscription_ids: ['sub-123'],
      headings: { en: 'Larm' },
      contents: { en: 'Enheten lämnade zonen' },
      data: { imei: '356307042441013' },
    });
  });

  it('fails clearly without configuration, and sends nothing', async () => {
    await expect(createOneSignalPush({ baseUrl }).send(message)).rejects.toBeInstanceOf(PushNotConfiguredError);
    await expect(createOneSignalPush({ appId: 'app-1', baseUrl }).send(message)).rejects.toThrow(/ONESIGNAL_API_KEY/);
    expect(seen).toHaveLength(0);
  });

  it('fails on an HTTP error without echoing the key', async () => {
    answer = { status: 403, body: JSON.stringify({ errors: ['Access denied'] }) };
    const sending = createOneSignalPush({ appId: 'app-1', apiKey: 'rest-key', baseUrl }).send(message);
    await expect(sending).rejects.toBeInstanceOf(PushDeliveryError);
    await expect(createOneSignalPush({ appId: 'app-1', apiKey: 'rest-key', baseUrl }).send(message)).rejects.toThrow(/403/);
    await expect(createOneSignalPush({ appId: 'app-1', apiKey: 'rest-key', baseUrl }).send(message)).rejects.not.toThrow(/rest-key/);
  });

  it('fails when a 200 answer reports the subscription as invalid', async () => {
    answer = { status: 200, body: JSON.stringify({ id: '', errors: { invalid_player_ids: ['sub-123'] } }) };
    await expect(createOneSignalPush({ appId: 'app-1', apiKey: 'rest-key', baseUrl }).send(message)).rejects.toThrow(/invalid_player_ids/);
  });
});
