import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseEnv, type AwsEnv, type EmbeddedEnv } from '../env';
import type { Ports } from '../ports';
import { createAwsPorts } from './aws/index';
import { PushNotConfiguredError } from './aws/push';
import { createEmbeddedPorts } from './embedded/index';

const portNames: (keyof Ports)[] = ['mailer', 'sms', 'push', 'geocoder', 'devices', 'live', 'alerts', 'queues', 'identity', 'files', 'clock', 'autoplan', 'webPush'];

afterEach(() => vi.unstubAllEnvs());

function expectEveryPort(ports: Ports) {
  expect(Object.keys(ports).sort()).toEqual([...portNames].sort());
  const clockNow = ports.clock.now();
  expect(Math.abs(clockNow.getTime() - Date.now())).toBeLessThan(1000);
}

describe('port wiring', () => {
  it('createAwsPorts wires every port without calling AWS', async () => {
    vi.stubEnv('ONESIGNAL_APP_ID', '');
    vi.stubEnv('ONESIGNAL_API_KEY', '');
    const env = parseEnv({
      RUNTIME: 'aws',
      TABLE_PREFIX: 'stack-',
      APP_URL: 'https://portal.example.se',
      USER_POOL_ID: 'eu-north-1_Abc123',
      USER_POOL_CLIENT_ID: 'client',
      MAIL_FROM: 'no-reply@example.se',
      IOT_DATA_ENDPOINT: 'abc-ats.iot.eu-north-1.amazonaws.com',
    }) as AwsEnv;
    const ports = createAwsPorts(env);
    expectEveryPort(ports);
    // Push without OneSignal settings fails clearly instead of dropping the message.
    await expect(ports.push.send({ to: 'sub', title: 't', text: 'x' })).rejects.toBeInstanceOf(PushNotConfiguredError);
    // A function not given the alert queue cannot enqueue, and says why.
    await expect(ports.alerts.enqueue({ imei: '356938035643809', sk: 'x' })).rejects.toThrow(/alert-delivery is not in QUEUE_URLS/);
    // A function not given the files bucket cannot store files, and says why.
    await expect(ports.files.delete('units/356938035643809/x')).rejects.toThrow(/FILES_BUCKET/);
    // A function the stack did not grant Autoplan cannot read a secret, and says why.
    await expect(
      ports.autoplan.report({
        accountId: 'a', imei: '356938035643809', month: '2026-10', registrationNumber: 'ABC123', odometerStart: null, odometerEnd: null,
        trips: 0, distanceKm: 0, businessKm: 0, privateKm: 0, otherKm: 0, idempotencyKey: 'k',
      }),
    ).rejects.toThrow(/AUTOPLAN_SECRET_PREFIX/);
    // A function the stack did not grant the VAPID secret cannot push to browsers, and says why.
    await expect(ports.webPush.publicKey()).rejects.toThrow(/VAPID_SECRET_ARN/);
  });

  it('createEmbeddedPorts wires every port without touching the database', () => {
    const env = parseEnv({
      RUNTIME: 'embedded',
      TABLE_PREFIX: 'local-',
      APP_URL: 'http://localhost:3000',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:1',
      DYNAMODB_ACCESS_KEY_ID: 'TESTKEY',
      JWT_SECRET: 'x'.repeat(32),
    }) as EmbeddedEnv;
    const ports = createEmbeddedPorts(env);
    expectEveryPort(ports);
  });

  it('the embedded queues refuse a message while the runtime has not wired them', async () => {
    const env = parseEnv({
      RUNTIME: 'embedded',
      TABLE_PREFIX: 'local-',
      APP_URL: 'http://localhost:3000',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:1',
      DYNAMODB_ACCESS_KEY_ID: 'TESTKEY',
      JWT_SECRET: 'x'.repeat(32),
    }) as EmbeddedEnv;
    await expect(createEmbeddedPorts(env).alerts.enqueue({ imei: '356938035643809', sk: 'x' })).rejects.toThrow(/not running.*alert-delivery/);
  });
});
