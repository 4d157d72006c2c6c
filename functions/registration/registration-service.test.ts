/**
 * The service's ordering against real DynamoDB Local and the real local identity adapter: a racer
 * that wins between our identity creation and our transaction, a leftover identity, a lost
 * welcome e-mail. Each race is staged by wrapping the identity port so that the rival's write
 * lands exactly in that gap, which a concurrent HTTP test cannot force.
 */
import { DeleteCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerAccountRequestSchema, type RegisterAccountRequest } from '../../shared/schemas/registration';
import { imeiFrom } from '../../shared/validators/imei';
import '../../shared/validators/phone';
import { useLocalTables } from '../../test/support/local-tables';
import { getPorts, overridePorts, resetPorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import { ValidationError } from '../platform/errors';
import type { IdentityProvider, Ports } from '../platform/ports';
import { registerAccount } from './registration-service';

const PASSWORD = 'Secret-pass1';
let serial = 0;

beforeAll(async () => {
  await useLocalTables();
});
beforeEach(() => resetPorts());

async function freeImei(): Promise<string> {
  const imei = imeiFrom(`35222222${String(300000 + serial++)}`);
  await dynamo().send(new PutCommand({ TableName: tableName('inventory'), Item: { imei, registered: false, provisionedAt: new Date().toISOString() } }));
  return imei;
}

function registration(imei: string, email: string) {
  const body: RegisterAccountRequest = {
    is_private_account: 1,
    countryCode: 'NO',
    Imei: imei,
    reseller: 'Forhandler',
    firstName: 'Kari',
    lastName: 'Nordmann',
    userName: email,
    address: 'Storgata 1',
    zipCode: '0150',
    city: 'Oslo',
    country: 'Norge',
    phone: '+47 412 34 567',
    countryDialCode: '47',
    userPassword: PASSWORD,
    userPassword_confirmation: PASSWORD,
    paymentType: 1,
    terms: true,
    subsiteID: 0,
    lang: 'no',
  };
  return registerAccountRequestSchema.parse(body);
}

/** The real identity port, with `between` run right after a successful createUser. */
function identityWithRival(between: () => Promise<void>): Ports {
  const real = getPorts().identity;
  const identity: IdentityProvider = {
    ...real,
    async createUser(newIdentity) {
      await real.createUser(newIdentity);
      await between();
    },
  };
  return { ...getPorts(), identity };
}

/** Items whose attribute has a value (a Scan: fine in a test, never in a handler). */
async function count(table: Parameters<typeof tableName>[0], where: { attr: string; value: string }) {
  const out = await dynamo().send(
    new ScanCommand({
      TableName: tableName(table),
      ConsistentRead: true,
      FilterExpression: '#a = :v',
      ExpressionAttributeNames: { '#a': where.attr },
      ExpressionAttributeValues: { ':v': where.value },
    }),
  );
  return out.Items?.length ?? 0;
}

async function failure(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe('registerAccount', () => {
  it('removes its identity when a rival registers the IMEI between identity and transaction', async () => {
    const imei = await freeImei();
    const email = 'kari.imei@example.no';
    const ports = identityWithRival(async () => {
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName('inventory'),
          Key: { imei },
          UpdateExpression: 'SET registered = :yes, accountId = :rival',
          ExpressionAttributeValues: { ':yes': true, ':rival': 'rival-account' },
        }),
      );
    });

    const error = await failure(registerAccount(registration(imei, email), ports));
    expect(error.fieldErrors).toEqual({ Imei: ['ImeiAlreadyRegistered'] });
    expect(await getPorts().identity.authenticate(email, PASSWORD)).toBeNull();
    expect(await count('users', { attr: 'email', value: email })).toBe(0);
    expect(await count('uniques', { attr: 'key', value: `email#${email}` })).toBe(0);
    expect(await count('units', { attr: 'imei', value: imei })).toBe(0);
  });

  it('removes its identity when a rival claims the e-mail between identity and transaction', async () => {
    const imei = await freeImei();
    const email = 'kari.email@example.no';
    const ports = identityWithRival(async () => {
      await dynamo().send(new PutCommand({ TableName: tableName('uniques'), Item: { key: `email#${email}`, userId: 'rival-user' } }));
    });

    const error = await failure(registerAccount(registration(imei, email), ports));
    expect(error.fieldErrors).toEqual({ userName: ['EmailAlreadyInUse'] });
    expect(await getPorts().identity.authenticate(email, PASSWORD)).toBeNull();
    expect(await count('users', { attr: 'email', value: email })).toBe(0);
    expect(await count('inventory', { attr: 'imei', value: imei })).toBe(1);
    expect(await count('uniques', { attr: 'key', value: `imei#${imei}` })).toBe(0);
  });

  it('answers ImeiNotInSystem when the tracker leaves the inventory in that gap', async () => {
    const imei = await freeImei();
    const ports = identityWithRival(async () => {
      await dynamo().send(new DeleteCommand({ TableName: tableName('inventory'), Key: { imei } }));
    });
    const error = await failure(registerAccount(registration(imei, 'kari.gone@example.no'), ports));
    expect(error.fieldErrors).toEqual({ Imei: ['ImeiNotInSystem'] });
    expect(await getPorts().identity.authenticate('kari.gone@example.no', PASSWORD)).toBeNull();
  });

  it('answers EmailAlreadyInUse for an existing identity and leaves that identity alone', async () => {
    const email = 'kari.exists@example.no';
    await getPorts().identity.createUser({ userId: 'someone-else', username: email, email, password: 'Other-pass1' });
    const error = await failure(registerAccount(registration(await freeImei(), email), getPorts()));
    expect(error.fieldErrors).toEqual({ userName: ['EmailAlreadyInUse'] });
    expect((await getPorts().identity.authenticate(email, 'Other-pass1'))?.userId).toBe('someone-else');
  });

  it('registers even when the welcome e-mail cannot be sent', async () => {
    const ports = getPorts();
    overridePorts({ mailer: { send: () => Promise.reject(new Error('mail service down')) } });
    const ids = await registerAccount(registration(await freeImei(), 'kari.nomail@example.no'), ports);
    expect(await count('users', { attr: 'userId', value: ids.userId })).toBe(1);
    expect((await getPorts().identity.authenticate('kari.nomail@example.no', PASSWORD))?.userId).toBe(ids.userId);
  });
});

