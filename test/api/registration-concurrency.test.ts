/**
 * Registration is atomic: of concurrent registrations of one IMEI, or of one e-mail, exactly one
 * succeeds; the others get 422 with the right key and leave no account, user, unit, claim or
 * identity behind. Counted with Scans of this test's own tables (tests may scan; handlers never do).
 */
import { PutCommand, ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPorts, overridePorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import type { RegisterAccountRequest } from '../../shared/schemas/registration';
import { imeiFrom } from '../../shared/validators/imei';
import { apiFetch } from '../support/http';
import { startRuntime } from '../support/runtime';

let rt: EmbeddedRuntime;
/** Identities the handlers created and deleted: the real adapter, counted. */
const identityCalls = { created: 0, deleted: 0 };
beforeAll(async () => {
  rt = await startRuntime();
  const real = getPorts().identity;
  overridePorts({
    identity: {
      ...real,
      createUser: async (identity) => {
        await real.createUser(identity);
        identityCalls.created++;
      },
      deleteUser: async (username) => {
        await real.deleteUser(username);
        identityCalls.deleted++;
      },
    },
  });
});
afterAll(async () => {
  await rt?.stop();
});

const RACERS = 10;
const PASSWORD = 'Secret-pass1';

function payload(imei: string, email: string): RegisterAccountRequest {
  return {
    is_private_account: 0,
    countryCode: 'SE',
    Imei: imei,
    reseller: 'Bilia',
    companyName: 'Race AB',
    firstName: 'Rita',
    lastName: 'Racer',
    userName: email,
    personal_org_number: '556036-0793',
    address: 'Banvägen 1',
    zipCode: '12345',
    city: 'Solna',
    country: 'Sverige',
    phone: '+46 70 123 45 67',
    countryDialCode: '46',
    userPassword: PASSWORD,
    userPassword_confirmation: PASSWORD,
    terms: true,
    subsiteID: 0,
  };
}

async function register(body: RegisterAccountRequest) {
  const res = await apiFetch(`${rt.url}/api/v1/register-account`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data?: { accountId: string; userId: string }; errors?: Record<string, string[]> } };
}

async function scan(table: Parameters<typeof tableName>[0]): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const out = await dynamo().send(new ScanCommand({ TableName: tableName(table), ConsistentRead: true, ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Everything registration writes, for before/after comparisons. */
async function census() {
  const [accounts, users, units, uniques, tokens] = await Promise.all([scan('accounts'), scan('users'), scan('units'), scan('uniques'), scan('tokens')]);
  return {
    accounts: accounts.length,
    users: users.length,
    units: units.length,
    uniques: uniques.map((u) => u['key'] as string).sort(),
    identities: tokens.filter((t) => String(t['id']).startsWith('identity#')).length,
  };
}

describe('concurrent registrations', () => {
  it(`of one IMEI with ${RACERS} different e-mails: exactly one wins, nothing of the losers remains`, async () => {
    const imei = demoImei(100);
    const before = await census();
    const calls = { ...identityCalls };
    const emails = Array.from({ length: RACERS }, (_, i) => `imei-racer-${i}@example.com`);
    const answers = await Promise.all(emails.map((email) => register(payload(imei, email))));

    const winners = answers.flatMap((a, i) => (a.status === 201 ? [{ ...a, email: emails[i] as string }] : []));
    expect(winners).toHaveLength(1);
    for (const loser of answers.filter((a) => a.status !== 201)) {
      expect(loser.status).toBe(422);
      expect(loser.body.errors).toEqual({ Imei: ['ImeiAlreadyRegistered'] });
    }

    const winner = winners[0] as (typeof winners)[number];
    const after = await census();
    expect(after.accounts).toBe(before.accounts + 1);
    expect(after.users).toBe(before.users + 1);
    expect(after.units).toBe(before.units + 1);
    expect(after.identities).toBe(before.identities + 1);
    expect(after.uniques).toEqual([...before.uniques, `email#${winner.email}`, `username#${winner.email}`, `imei#${imei}`].sort());

    // Losers that got past the first checks made an identity and removed it again.
    expect(identityCalls.created - calls.created - (identityCalls.deleted - calls.deleted)).toBe(1);

    // Only the winner can log in.
    for (const email of emails) {
      const auth = await getPorts().identity.authenticate(email, PASSWORD);
      if (email === winner.email) expect(auth?.userId).toBe(winner.body.data?.userId);
      else expect(auth).toBeNull();
    }
  });

  it(`of one e-mail with ${RACERS} different IMEIs: exactly one wins, the other IMEIs stay free`, async () => {
    // Extra trackers in the inventory, one per racer.
    const imeis = Array.from({ length: RACERS }, (_, i) => imeiFrom(`35111111${String(200000 + i)}`));
    for (const imei of imeis) {
      await dynamo().send(new PutCommand({ TableName: tableName('inventory'), Item: { imei, registered: false, provisionedAt: new Date().toISOString() } }));
    }
    const before = await census();
    // Case differs per racer: the address is one address whatever its case.
    const variants = (i: number) => (i % 2 ? 'Same.Racer@Example.com' : 'same.racer@example.com');
    const answers = await Promise.all(imeis.map((imei, i) => register(payload(imei, variants(i)))));

    const winnerIndex = answers.findIndex((a) => a.status === 201);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const loser of answers.filter((a) => a.status !== 201)) {
      expect(loser.status).toBe(422);
      expect(loser.body.errors).toEqual({ userName: ['EmailAlreadyInUse'] });
    }

    const after = await census();
    expect(after.accounts).toBe(before.accounts + 1);
    expect(after.users).toBe(before.users + 1);
    expect(after.units).toBe(before.units + 1);
    expect(after.identities).toBe(before.identities + 1);
    const winningImei = imeis[winnerIndex] as string;
    expect(after.uniques).toEqual([...before.uniques, 'email#same.racer@example.com', 'username#same.racer@example.com', `imei#${winningImei}`].sort());

    for (const imei of imeis.filter((x) => x !== winningImei)) {
      const res = await apiFetch(`${rt.url}/api/v1/validate-imei?imei=${imei}`);
      expect(res.status).toBe(200);
    }
    expect((await getPorts().identity.authenticate('same.racer@example.com', PASSWORD))?.userId).toBe(answers[winnerIndex]?.body.data?.userId);
  });

  it('of many customers at once: every distinct IMEI and e-mail succeeds', async () => {
    const before = await census();
    const answers = await Promise.all(
      [101, 102, 103, 104, 105].map((n) => register(payload(demoImei(n), `customer-${n}@example.com`))),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    const after = await census();
    expect(after.accounts).toBe(before.accounts + 5);
    expect(after.identities).toBe(before.identities + 5);
  });
});
