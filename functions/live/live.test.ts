/**
 * The live channel's access rules: the topics a token grants, the AWS custom authorizer's answer
 * (policy documents, intervals, refusals) and where browsers connect in each runtime.
 */
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { forgetLiveWatch, isLiveWatched, LIVE_WATCH_MS } from '../domain/account/live-watch';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoImei, demoUsers, seedDemo } from '../../infra/local/seed';
import { useLocalTables } from '../../test/support/local-tables';
import { loginAs } from '../../test/support/sessions';
import { systemClock } from '../platform/adapters/system-clock';
import { overridePorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import { EnvironmentError, parseEnv } from '../platform/env';
import { sessionItemId } from '../domain/session/schema';
import { handler as authorize, iotArnPrefix, livePolicies, MAX_POLICY_DOCUMENT_CHARS, MAX_POLICY_DOCUMENTS, type IotAuthorizerEvent } from './authorize';
import { allowsSubscription, authorizeLive, isClientIdOf, LIVE_UNIT_TOPIC_LIMIT, liveTopicsFor, newLiveClientId } from './live-access';
import { imeiFrom } from '../../shared/validators/imei';
import { liveEndpointUrl } from './live-endpoint';

const FUNCTION_ARN = 'arn:aws:lambda:eu-north-1:123456789012:function:TrackingPortal-live-authorizer';
const IOT = 'arn:aws:iot:eu-north-1:123456789012';

function connectEvent(token: string | undefined, clientId: string | undefined): IotAuthorizerEvent {
  return {
    protocols: ['tls', 'mqtt'],
    protocolData: {
      mqtt: {
        username: 'anyone',
        ...(token === undefined ? {} : { password: Buffer.from(token, 'utf8').toString('base64') }),
        ...(clientId === undefined ? {} : { clientId }),
      },
    },
    connectionMetadata: { id: 'c0ffee' },
  };
}
const invoke = (event: IotAuthorizerEvent) => authorize(event, { invokedFunctionArn: FUNCTION_ARN });

let admin: { token: string; userId: string; sessionId: string };
let user: { token: string; userId: string; sessionId: string };
let accountId: string;

beforeAll(async () => {
  await useLocalTables();
  await seedDemo();
  admin = await loginAs(demoUsers.admin.username, DEMO_PASSWORD);
  user = await loginAs(demoUsers.user.username, DEMO_PASSWORD);
  const me = await dynamo().send(new GetCommand({ TableName: tableName('users'), Key: { userId: admin.userId } }));
  accountId = String(me.Item?.['accountId']);
});

afterEach(() => overridePorts({ clock: systemClock }));

describe('live topics', () => {
  it("gives an admin the account filter, and a user their own filter and, for a few units, the units' topics", () => {
    // An admin also gets their own filter: a unit they locked is published to its locker only.
    expect(liveTopicsFor({ accountId: 'acc-1', userId: 'u-0', unitImeis: undefined })).toEqual(['live/acc-1/units/+', 'live/acc-1/users/u-0/units/+']);
    const a = demoImei(0);
    const b = demoImei(1);
    const own = 'live/acc-1/users/u-1/units/+';
    // Duplicates collapse and a malformed grant is skipped instead of failing the connection.
    expect(liveTopicsFor({ accountId: 'acc-1', userId: 'u-1', unitImeis: [b, a, a, 'not-an-imei'] })).toEqual([own, `live/acc-1/units/${a}`, `live/acc-1/units/${b}`]);
    expect(liveTopicsFor({ accountId: 'acc-1', userId: 'u-1', unitImeis: [] })).toEqual([own]);
    const many = Array.from({ length: LIVE_UNIT_TOPIC_LIMIT + 1 }, (_, i) => imeiFrom(String(35693803100000 + i)));
    expect(liveTopicsFor({ accountId: 'acc-1', userId: 'u-1', unitImeis: many })).toEqual([own]);
    expect(liveTopicsFor({ accountId: 'acc-1', userId: 'u-1', unitImeis: many.slice(1) })).toHaveLength(LIVE_UNIT_TOPIC_LIMIT + 1);
  });

  it('binds client ids to their user', () => {
    const id = newLiveClientId('u-1');
    expect(id).toMatch(/^web-u-1-[0-9a-f]{24}$/);
    expect(newLiveClientId('u-1')).not.toBe(id);
    expect(isClientIdOf('u-1', id)).toBe(true);
    expect(isClientIdOf('u-2', id)).toBe(false);
    expect(isClientIdOf('u', id)).toBe(false);
    expect(isClientIdOf('u-1', 'web-u-1-')).toBe(false);
    expect(isClientIdOf('u-1', 'web-u-1-abc/def+ghij')).toBe(false);
  });

  it('allows exactly the granted filters', async () => {
    const grant = await authorizeLive(user.token, newLiveClientId(user.userId));
    expect(grant.topics).toEqual([`live/${accountId}/users/${user.userId}/units/+`, `live/${accountId}/units/${demoImei(0)}`, `live/${accountId}/units/${demoImei(1)}`]);
    expect(allowsSubscription(grant, `live/${accountId}/users/${user.userId}/units/+`)).toBe(true);
    expect(allowsSubscription(grant, `live/${accountId}/users/${admin.userId}/units/+`)).toBe(false);
    expect(allowsSubscription(grant, `live/${accountId}/units/${demoImei(1)}`)).toBe(true);
    expect(allowsSubscription(grant, `live/${accountId}/units/${demoImei(2)}`)).toBe(false);
    expect(allowsSubscription(grant, `live/${accountId}/units/+`)).toBe(false);
    expect(allowsSubscription(grant, `live/${accountId}/#`)).toBe(false);
  });
});

describe('the watch mark', () => {
  it("marks the caller's account as watched when the authorizer grants a connection, an ordinary user's too, and never on a refusal", async () => {
    const markOf = async () =>
      (await dynamo().send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId }, ConsistentRead: true }))).Item?.['liveWatchedUntil'] as number | undefined;
    await dynamo().send(new UpdateCommand({ TableName: tableName('accounts'), Key: { accountId }, UpdateExpression: 'REMOVE liveWatchedUntil' }));
    forgetLiveWatch();
    expect((await invoke(connectEvent(user.token, newLiveClientId(admin.userId)))).isAuthenticated).toBe(false);
    expect(await markOf()).toBeUndefined();
    expect(await isLiveWatched(accountId)).toBe(false);

    const before = Date.now();
    expect((await invoke(connectEvent(user.token, newLiveClientId(user.userId)))).isAuthenticated).toBe(true);
    const until = await markOf();
    expect(until).toBeGreaterThanOrEqual(before + LIVE_WATCH_MS);
    expect(until).toBeLessThanOrEqual(Date.now() + LIVE_WATCH_MS);
    expect(await isLiveWatched(accountId)).toBe(true);
    // An admin's connection right after finds the mark fresh: nothing is written again.
    await authorizeLive(admin.token, newLiveClientId(admin.userId));
    expect(await markOf()).toBe(until);
  });
});

describe('IoT Core custom authorizer', () => {
  it("answers an admin's connection with a policy for its client id and the account's live topics", async () => {
    const clientId = newLiveClientId(admin.userId);
    const res = await invoke(connectEvent(admin.token, clientId));
    expect(res.isAuthenticated).toBe(true);
    expect(res.principalId).toBe(admin.userId.replaceAll('-', ''));
    expect(res.principalId).toMatch(/^[A-Za-z0-9]{1,128}$/);
    expect(res.refreshAfterInSeconds).toBe(300);
    // The local access token lives one hour: the connection ends with it.
    expect(res.disconnectAfterInSeconds).toBeGreaterThan(3590);
    expect(res.disconnectAfterInSeconds).toBeLessThanOrEqual(3600);
    expect(res.policyDocuments).toEqual([
      {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Action: 'iot:Connect', Resource: [`${IOT}:client/${clientId}`] },
          {
            Effect: 'Allow',
            Action: 'iot:Subscribe',
            Resource: [`${IOT}:topicfilter/live/${accountId}/units/+`, `${IOT}:topicfilter/live/${accountId}/users/${admin.userId}/units/+`],
          },
          {
            Effect: 'Allow',
            Action: 'iot:Receive',
            Resource: [`${IOT}:topic/live/${accountId}/units/*`, `${IOT}:topic/live/${accountId}/users/${admin.userId}/units/*`],
          },
        ],
      },
    ]);
  });

  it("limits an ordinary user's policy to the granted units", async () => {
    const clientId = newLiveClientId(user.userId);
    const res = await invoke(connectEvent(user.token, clientId));
    const own = `live/${accountId}/users/${user.userId}/units/+`;
    const topics = [demoImei(0), demoImei(1)].map((imei) => `live/${accountId}/units/${imei}`);
    expect(res.isAuthenticated).toBe(true);
    expect(res.policyDocuments).toHaveLength(1);
    expect(res.policyDocuments[0]?.Statement).toEqual([
      { Effect: 'Allow', Action: 'iot:Connect', Resource: [`${IOT}:client/${clientId}`] },
      { Effect: 'Allow', Action: 'iot:Subscribe', Resource: [own, ...topics].map((t) => `${IOT}:topicfilter/${t}`) },
      { Effect: 'Allow', Action: 'iot:Receive', Resource: [own.replace('+', '*'), ...topics].map((t) => `${IOT}:topic/${t}`) },
    ]);
  });

  it("stays within IoT Core's limits (10 documents of 2,048 characters) for a user granted 1,000 units", () => {
    // The longest ARN prefix and ids the topics allow; 1,000 units, and exactly the limit.
    const arn = iotArnPrefix('arn:aws-us-gov:lambda:ap-southeast-2:123456789012:function:x');
    const accountId = 'a'.repeat(128);
    const userId = 'u'.repeat(128);
    const clientId = newLiveClientId(userId);
    const units = Array.from({ length: 1000 }, (_, i) => imeiFrom(String(35693803100000 + i)));
    for (const granted of [units, units.slice(0, LIVE_UNIT_TOPIC_LIMIT)]) {
      const docs = livePolicies(arn, clientId, liveTopicsFor({ accountId, userId, unitImeis: granted }));
      expect(docs.length).toBeLessThanOrEqual(MAX_POLICY_DOCUMENTS);
      for (const doc of docs) expect(JSON.stringify(doc).length).toBeLessThanOrEqual(MAX_POLICY_DOCUMENT_CHARS);
      const resources = docs.flatMap((d) => d.Statement.flatMap((s) => s.Resource));
      expect(resources).toContain(`${arn}:topicfilter/live/${accountId}/users/${userId}/units/+`);
      expect(resources).toContain(`${arn}:topic/live/${accountId}/users/${userId}/units/*`);
    }
    // The old design, one filter per unit, fails the limits long before 1,000 units.
    const perUnit = units.slice(0, 100).map((imei) => `live/${accountId}/units/${imei}`);
    expect(() => livePolicies(arn, clientId, perUnit)).toThrow(/documents/);
  });

  it('lets a user without units connect and hear only their own filter', async () => {
    expect(livePolicies(IOT, 'web-u-1-abcdefgh', [])).toEqual([
      { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'iot:Connect', Resource: [`${IOT}:client/web-u-1-abcdefgh`] }] },
    ]);
  });

  it('keeps the connection at least the 300 s IoT Core allows when the token is nearly spent', async () => {
    overridePorts({ clock: { now: () => new Date(Date.now() + 3500_000) } });
    const res = await invoke(connectEvent(admin.token, newLiveClientId(admin.userId)));
    expect(res.isAuthenticated).toBe(true);
    expect(res.disconnectAfterInSeconds).toBe(300);
  });

  it('refuses without credentials, with a forged token, or with a client id that is not the caller’s', async () => {
    const refusals = [
      connectEvent(undefined, newLiveClientId(admin.userId)),
      connectEvent(admin.token, undefined),
      connectEvent(`${admin.token.slice(0, -4)}AAAA`, newLiveClientId(admin.userId)),
      connectEvent('not a token', newLiveClientId(admin.userId)),
      connectEvent(admin.token, newLiveClientId(user.userId)),
      connectEvent(admin.token, 'browser-1'),
    ];
    for (const event of refusals) {
      const res = await invoke(event);
      expect(res).toEqual({ isAuthenticated: false, principalId: 'denied', disconnectAfterInSeconds: 300, refreshAfterInSeconds: 300, policyDocuments: [] });
    }
  });

  it('refuses once the login session has expired or ended (also at a policy refresh)', async () => {
    const clientId = newLiveClientId(user.userId);
    expect((await invoke(connectEvent(user.token, clientId))).isAuthenticated).toBe(true);
    overridePorts({ clock: { now: () => new Date(Date.now() + 25 * 3600_000) } });
    expect((await invoke(connectEvent(user.token, clientId))).isAuthenticated).toBe(false);
    overridePorts({ clock: systemClock });
    await dynamo().send(new DeleteCommand({ TableName: tableName('tokens'), Key: { id: sessionItemId(user.sessionId) } }));
    expect((await invoke(connectEvent(user.token, clientId))).isAuthenticated).toBe(false);
  });
});

describe('live endpoint', () => {
  const common = { TABLE_PREFIX: 'p-', AWS_REGION: 'eu-north-1' };
  const embedded = (APP_URL: string) =>
    parseEnv({ ...common, APP_URL, RUNTIME: 'embedded', DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000', DYNAMODB_ACCESS_KEY_ID: 'TESTKEY', JWT_SECRET: 'x'.repeat(32) });
  const aws = (extra: Record<string, string>) =>
    parseEnv({
      ...common,
      APP_URL: 'https://portal.example.se',
      RUNTIME: 'aws',
      USER_POOL_ID: 'eu-north-1_abc',
      USER_POOL_CLIENT_ID: 'client',
      MAIL_FROM: 'no-reply@example.se',
      IOT_DATA_ENDPOINT: 'a1b2c3-ats.iot.eu-north-1.amazonaws.com',
      ...extra,
    });

  it("is the embedded broker's WebSocket on the portal's own origin", () => {
    expect(liveEndpointUrl(embedded('http://127.0.0.1:3000'))).toBe('ws://127.0.0.1:3000/mqtt');
    expect(liveEndpointUrl(embedded('https://fleet.example.se/portal/'))).toBe('wss://fleet.example.se/mqtt');
  });

  it('is IoT Core over WebSocket naming the custom authorizer on AWS', () => {
    expect(liveEndpointUrl(aws({ LIVE_AUTHORIZER_NAME: 'TrackingPortal-live' }))).toBe(
      'wss://a1b2c3-ats.iot.eu-north-1.amazonaws.com/mqtt?x-amz-customauthorizer-name=TrackingPortal-live',
    );
    expect(liveEndpointUrl(aws({ LIVE_AUTHORIZER_NAME: 'P-live', IOT_DATA_ENDPOINT: 'https://a1b2c3-ats.iot.eu-north-1.amazonaws.com' }))).toBe(
      'wss://a1b2c3-ats.iot.eu-north-1.amazonaws.com/mqtt?x-amz-customauthorizer-name=P-live',
    );
  });

  it('names what is missing when the stack did not set the authorizer', () => {
    const env = aws({});
    expect(() => liveEndpointUrl(env)).toThrow(EnvironmentError);
    expect(() => liveEndpointUrl(env)).toThrow(/LIVE_AUTHORIZER_NAME/);
    expect(() => aws({ LIVE_AUTHORIZER_NAME: 'bad name/with space' })).toThrow(/LIVE_AUTHORIZER_NAME/);
  });
});
