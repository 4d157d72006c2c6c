/**
 * The job `attestation-reminders` against DynamoDB Local, with the clock on the 1st: each driver
 * with unattested trips in the previous month gets the trip log's reminder once, however many runs
 * race, in their language and brand; attested trips, trips of other months, and users who drove
 * nothing get none; on the 2nd nothing runs.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { recomputeUnitDaysAndMonths } from '../trips/unit-days';
import { beforeAll, describe, expect, it } from 'vitest';
import { imeiFrom } from '../../shared/validators/imei';
import { useLocalTables } from '../../test/support/local-tables';
import { overridePorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import type { EmailMessage } from '../platform/ports';
import { handler } from '../jobs/attestation-reminders';

// In the future (2037 has 2026's calendar): DynamoDB Local deletes items whose TTL attribute has passed.
let now = Date.parse('2037-03-01T07:00:00Z');
const mails: EmailMessage[] = [];

beforeAll(async () => {
  await useLocalTables();
  overridePorts({ clock: { now: () => new Date(now) }, mailer: { send: async (message) => void mails.push(message) } });
});

const put = (table: 'accounts' | 'users' | 'units' | 'trips', Item: Record<string, unknown>) => dynamo().send(new PutCommand({ TableName: tableName(table), Item }));

let serial = 0;
async function user(accountId: string, lang: 'en' | 'sv' | 'no', firstName: string): Promise<{ userId: string; email: string }> {
  const userId = `u-${randomUUID()}`;
  const email = `${firstName.toLowerCase()}-${serial++}@example.se`;
  await put('users', { userId, accountId, username: email, email, firstName, lastName: 'Driver', lang, subsiteId: 1, isAdmin: false, isSupport: false, enableTwoFactorAuth: false });
  return { userId, email };
}

async function trip(imei: string, accountId: string, startIso: string, fields: Record<string, unknown> = {}): Promise<void> {
  const startTs = Date.parse(startIso);
  await put('trips', {
    imei, startTs, accountId, stopTs: startTs + 600_000, startLat: 59.3, startLon: 18.0, stopLat: 59.4, stopLon: 18.1,
    distanceM: 5000, startCounterM: 0, stopCounterM: 5000, counterSource: 'computed', type: 'business', v: 0, ...fields,
  });
}

describe('job attestation-reminders', () => {
  it('reminds each driver with unattested trips of last month once, even when runs race', async () => {
    const accounts = await Promise.all(
      [0, 1].map(async (n) => {
        const accountId = `a-${randomUUID()}`;
        await put('accounts', { accountId, name: `Fleet ${n}` });
        const imei = imeiFrom(`3569380761${String(n).padStart(4, '0')}`);
        await put('units', { imei, accountId, name: `Van ${n}`, vehicleType: 'van', protocol: 'native', createdAt: '2036-01-01T00:00:00.000Z' });
        return { accountId, imei };
      }),
    );
    const [a, b] = accounts as [(typeof accounts)[0], (typeof accounts)[0]];
    const anna = await user(a.accountId, 'sv', 'Anna');
    const bo = await user(a.accountId, 'en', 'Bo');
    const cia = await user(a.accountId, 'en', 'Cia');
    const dag = await user(b.accountId, 'no', 'Dag');
    // Anna: two open trips in February. Bo: only an attested one. Cia: only one in January. Dag: open, another account.
    await trip(a.imei, a.accountId, '2037-02-03T08:00:00Z', { driverId: anna.userId });
    await trip(a.imei, a.accountId, '2037-02-27T08:00:00Z', { driverId: anna.userId });
    await trip(a.imei, a.accountId, '2037-02-10T08:00:00Z', { driverId: bo.userId, attestationId: 'att-1' });
    await trip(a.imei, a.accountId, '2037-01-31T08:00:00Z', { driverId: cia.userId });
    // 28 February 23:30 UTC is 1 March in Stockholm: not February's.
    await trip(a.imei, a.accountId, '2037-02-28T23:30:00Z', { driverId: cia.userId });
    await trip(b.imei, b.accountId, '2037-02-14T08:00:00Z', { driverId: dag.userId });
    // The rollups every trip write keeps: the job finds last month's units through them.
    await recomputeUnitDaysAndMonths(a.accountId, a.imei, ['2037-01-31', '2037-02-03', '2037-02-10', '2037-02-27', '2037-03-01']);
    await recomputeUnitDaysAndMonths(b.accountId, b.imei, ['2037-02-14']);

    now = Date.parse('2037-03-02T07:00:00Z');
    expect(await handler({ job: 'attestation-reminders' })).toMatchObject({ sent: 0, done: false });

    now = Date.parse('2037-03-01T07:00:00Z');
    const runs = await Promise.all([handler({ job: 'attestation-reminders' }), handler({ job: 'attestation-reminders' }), handler({ job: 'attestation-reminders' })]);
    expect(runs.every((r) => r.month === '2037-02')).toBe(true);
    // A later run of the day finds the month done.
    now += 600_000;
    expect(await handler({ job: 'attestation-reminders' })).toMatchObject({ done: true, accounts: 0, sent: 0 });

    expect(mails.map((m) => m.to).sort()).toEqual([anna.email, dag.email].sort());
    const annas = mails.find((m) => m.to === anna.email)!;
    expect(annas.subject).toContain('februari 2037');
    expect(annas.text).toContain('Hej Anna');
    expect(mails.find((m) => m.to === dag.email)!.subject).toContain('februar 2037');
  });
});
