/**
 * The low SMS balance warning against DynamoDB Local: many SMS at once below the threshold e-mail
 * the admins exactly once; nothing above the threshold or without one; a failed e-mail re-arms it.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { useLocalTables } from '../../test/support/local-tables';
import { dynamo, tableName } from '../platform/db';
import type { EmailMessage, Ports } from '../platform/ports';
import { warnIfLowBalance } from './sms-credits';

const clock = { now: () => new Date() } as Ports['clock'];

async function accountWith(item: Record<string, unknown>): Promise<{ accountId: string; subsiteId: number; lang: 'en' }> {
  const accountId = `acc-${randomUUID()}`;
  await dynamo().send(new PutCommand({ TableName: tableName('accounts'), Item: { accountId, name: 'Credits AB', subsiteId: 0, ...item } }));
  for (const [n, isAdmin] of [[1, true], [2, true], [3, false]] as const) {
    await dynamo().send(
      new PutCommand({ TableName: tableName('users'), Item: { userId: `${accountId}-u${n}`, accountId, email: `u${n}@${accountId}.example`, isAdmin, lang: 'sv' } }),
    );
  }
  return { accountId, subsiteId: 0, lang: 'en' };
}

function recorder(fail = false) {
  const sent: EmailMessage[] = [];
  return { sent, ports: { clock, mailer: {
        send: async (m: EmailMessage) => {
          if (fail) throw new Error('mail down');
          sent.push(m);
        },
      },
    } as Pick<Ports, 'mailer' | 'clock'> };
}
const warnedAt = async (accountId: string) =>
  (await dynamo().send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId }, ConsistentRead: true }))).Item?.['smsLowBalanceWarnedAt'];

beforeAll(async () => {
  await useLocalTables();
});

describe('the low SMS balance warning', () => {
  it('e-mails each admin once however many SMS below the threshold finish at once', async () => {
    const account = await accountWith({ smsCredits: 4, smsLowBalanceThreshold: 5 });
    const { sent, ports } = recorder();
    const won = await Promise.all(Array.from({ length: 8 }, () => warnIfLowBalance(account, ports)));
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(sent.map((m) => m.to).sort()).toEqual([`u1@${account.accountId}.example`, `u2@${account.accountId}.example`]);
    expect(sent[0]?.subject).toContain('4');
    expect(await warnIfLowBalance(account, ports)).toBe(false);
    expect(sent).toHaveLength(2);
  });

  it('stays quiet at or above the threshold and without one', async () => {
    const { sent, ports } = recorder();
    expect(await warnIfLowBalance(await accountWith({ smsCredits: 5, smsLowBalanceThreshold: 5 }), ports)).toBe(false);
    expect(await warnIfLowBalance(await accountWith({ smsCredits: 0, smsLowBalanceThreshold: 0 }), ports)).toBe(false);
    expect(await warnIfLowBalance(await accountWith({ smsCredits: 0 }), ports)).toBe(false);
    expect(sent).toEqual([]);
  });

  it('re-arms when the e-mail could not be sent', async () => {
    const account = await accountWith({ smsCredits: 1, smsLowBalanceThreshold: 5 });
    expect(await warnIfLowBalance(account, recorder(true).ports)).toBe(false);
    expect(await warnedAt(account.accountId)).toBeUndefined();
    const { sent, ports } = recorder();
    expect(await warnIfLowBalance(account, ports)).toBe(true);
    expect(sent).toHaveLength(2);
    expect(await warnedAt(account.accountId)).toEqual(expect.any(String));
  });
});
