import { createECDH } from 'node:crypto';
import { GetSecretValueCommand, ResourceNotFoundException, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { WebPushMessage } from '../../ports';
import { vapidKeysFromSeed, WebPushDeliveryError } from '../web-push';
import { createSecretsManagerWebPush, WebPushNotConfiguredError } from './web-push';

const secrets = mockClient(SecretsManagerClient);
const SEED = 'q7Lk2mVx9TzB4nWc8RfJ3hYs6GdP1aQe5UoK0iXv7ZbN2wMt4CyH8jEu3SrD6gFl';
const ARN = 'arn:aws:secretsmanager:eu-north-1:123456789012:secret:Portal-WebPushVapidSeed-AbC123';

const client = () => new SecretsManagerClient({ region: 'eu-north-1' });
const message = (endpoint: string): WebPushMessage => ({
  id: 'sub-1',
  subscription: { endpoint, p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: 'AAAAAAAAAAAAAAAAAAAAAA' },
  payload: { title: 'Van 1', body: 'Left Depot', url: '/user/alerts', tag: 'alarm:x' },
  ttlSeconds: 60,
  urgency: 'high',
});

beforeEach(() => secrets.reset());

describe('vapidKeysFromSeed', () => {
  it('derives one valid P-256 key pair per seed', () => {
    const keys = vapidKeysFromSeed(SEED);
    expect(vapidKeysFromSeed(SEED)).toEqual(keys);
    expect(vapidKeysFromSeed(`${SEED}x`).publicKey).not.toBe(keys.publicKey);
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(keys.privateKey, 'base64url'));
    expect(ecdh.getPublicKey().toString('base64url')).toBe(keys.publicKey);
    expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(keys.privateKey, 'base64url')).toHaveLength(32);
    expect(() => vapidKeysFromSeed('short')).toThrow(/32 characters/);
  });
});

describe('createSecretsManagerWebPush', () => {
  it('reads the seed secret once and answers the derived public key', async () => {
    secrets.on(GetSecretValueCommand, { SecretId: ARN }).resolves({ SecretString: SEED });
    const push = createSecretsManagerWebPush({ client: client(), secretId: ARN, subject: 'mailto:no-reply@example.se' });
    expect(await push.publicKey()).toBe(vapidKeysFromSeed(SEED).publicKey);
    expect(await push.publicKey()).toBe(vapidKeysFromSeed(SEED).publicKey);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('reads again after a failed read instead of keeping the failure', async () => {
    secrets.on(GetSecretValueCommand).rejectsOnce(new ResourceNotFoundException({ message: 'not yet', $metadata: {} })).resolves({ SecretString: SEED });
    const push = createSecretsManagerWebPush({ client: client(), secretId: ARN, subject: 'mailto:no-reply@example.se' });
    await expect(push.publicKey()).rejects.toBeInstanceOf(ResourceNotFoundException);
    expect(await push.publicKey()).toBe(vapidKeysFromSeed(SEED).publicKey);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('says so when the stack did not give the function the secret', async () => {
    const push = createSecretsManagerWebPush({ client: client(), secretId: undefined, subject: 'mailto:no-reply@example.se' });
    await expect(push.publicKey()).rejects.toBeInstanceOf(WebPushNotConfiguredError);
    await expect(push.send(message('https://fcm.googleapis.com/fcm/send/x'))).rejects.toBeInstanceOf(WebPushNotConfiguredError);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });

  it('never calls an endpoint on a private address, named or resolved', async () => {
    secrets.on(GetSecretValueCommand).resolves({ SecretString: SEED });
    const resolved: string[] = [];
    const push = createSecretsManagerWebPush({
      client: client(),
      secretId: ARN,
      subject: 'mailto:no-reply@example.se',
      resolve: (host) => {
        resolved.push(host);
        return Promise.resolve(host === 'rebound.example.com' ? ['203.0.113.9', '10.0.0.7'] : ['127.0.0.1']);
      },
    });
    await expect(push.send(message('http://127.0.0.1:9/x'))).rejects.toThrow(/InvalidPushEndpoint/);
    await expect(push.send(message('https://169.254.169.254/latest'))).rejects.toThrow(/PushEndpointNotAllowed/);
    // A public name that resolves (also) into the deployment's network.
    await expect(push.send(message('https://rebound.example.com/push'))).rejects.toBeInstanceOf(WebPushDeliveryError);
    await expect(push.send(message('https://push.example.com/push'))).rejects.toThrow(/public addresses only/);
    expect(resolved).toEqual(['rebound.example.com', 'push.example.com']);
  });
});
