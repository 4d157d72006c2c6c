/**
 * Routes that name an account feature (`RouteDef.feature`): the middleware answers 403 with the
 * requirement's message key, checked on a synthetic route per requirement against DynamoDB Local
 * (what each requirement means over the account's flags: shared/features.test.ts).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { featureRequirements, type AccountFeatures, type FeatureRequirement } from '../../shared/features';
import type { RouteDef } from '../../shared/routes';
import { featureCases as cases, NONE } from '../../test/support/feature-cases';
import { useLocalTables } from '../../test/support/local-tables';
import { createTestUser, loginAs, type TestUser } from '../../test/support/sessions';
import { dynamo, tableName } from './db';
import { httpHandler } from './http';


describe('a route that names a feature', () => {
  let owner: TestUser;
  let token: string;

  const route = {
    operationId: 'featureProbe',
    method: 'GET',
    path: '/api/v1/user/feature-probe',
    capability: 'dev',
    file: 'feature-probe',
    access: 'member',
    summary: 'test',
    response: z.object({ ok: z.literal(true) }),
  } satisfies RouteDef;

  const event = (): APIGatewayProxyEventV2 =>
    ({
      version: '2.0',
      routeKey: `GET ${route.path}`,
      rawPath: route.path,
      rawQueryString: '',
      headers: { authorization: `Bearer ${token}` },
      requestContext: { requestId: 'r1', http: { method: 'GET', path: route.path } },
      isBase64Encoded: false,
    }) as unknown as APIGatewayProxyEventV2;

  async function answer(feature: FeatureRequirement | undefined): Promise<{ status: number; body: unknown }> {
    const handler = httpHandler({ ...route, ...(feature ? { feature } : {}) }, async () => ({ ok: true as const }));
    const res = await handler(event(), {} as Context);
    return { status: res.statusCode ?? 0, body: JSON.parse(res.body ?? 'null') };
  }

  async function setFeatures(features: AccountFeatures | null): Promise<void> {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('accounts'),
        Key: { accountId: owner.accountId },
        ...(features ? { UpdateExpression: 'SET features = :f', ExpressionAttributeValues: { ':f': features } } : { UpdateExpression: 'REMOVE features' }),
      }),
    );
  }

  beforeAll(async () => {
    await useLocalTables();
    owner = await createTestUser();
    ({ token } = await loginAs(owner.username, owner.password));
  });

  it.each(cases)('%s with %j: answers 200 when met, else 403 with its key', async (requirement, features, meets) => {
    await setFeatures(features);
    const key = featureRequirements[requirement].deniedKey;
    expect(await answer(requirement)).toEqual(
      meets ? { status: 200, body: { success: true, data: { ok: true } } } : { status: 403, body: { success: false, message: key, errors: key } },
    );
  });

  it('reads the flags on every request: a feature switched off is refused at once, and served again when switched on', async () => {
    const handler = httpHandler({ ...route, feature: 'rfid' }, async () => ({ ok: true as const }));
    const status = async () => (await handler(event(), {} as Context)).statusCode;
    await setFeatures({ ...NONE, rfid: true });
    expect(await status()).toBe(200);
    await setFeatures(NONE);
    expect(await status()).toBe(403);
    await setFeatures({ ...NONE, rfid: true });
    expect(await status()).toBe(200);
  });

  it('refuses an account without flags, and leaves routes that name no feature alone', async () => {
    await setFeatures(null);
    expect((await answer('fullSubscription')).status).toBe(403);
    // The same route without a feature answers with every flag off: the 403 above is the feature check's.
    await setFeatures({ ...NONE, basicOnly: true });
    expect(await answer(undefined)).toEqual({ status: 200, body: { success: true, data: { ok: true } } });
  });

  it('answers 401 before it looks at features', async () => {
    const handler = httpHandler({ ...route, feature: 'realtimeMap' }, async () => ({ ok: true as const }));
    const res = await handler({ ...event(), headers: {} }, {} as Context);
    expect(res.statusCode).toBe(401);
  });

  it('cannot be public', () => {
    expect(() => httpHandler({ ...route, access: 'public', feature: 'realtimeMap' }, async () => ({ ok: true as const }))).toThrow(
      /public route cannot require the feature realtimeMap/,
    );
  });
});
