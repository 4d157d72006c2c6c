/**
 * The support log: every support action, who did it, when, to which account, with what. One item
 * per action in `support-log`, by UTC month and time, so the support page's list is a Query of the
 * current month and, when that holds too few, the one before.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { SUPPORT_LOG_LIMIT, type SupportAction, type SupportLogEntry } from '../../shared/schemas/support';
import type { AuthContext } from '../platform/auth-context';
import { dynamo, tableName } from '../platform/db';
import { fullNameOf, getLockUser } from '../units/lock-repository';

const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

export interface SupportLogInput {
  action: SupportAction;
  account: { accountId: string; name: string } | null;
  details: string;
}

type Caller = Pick<AuthContext, 'userId' | 'username'>;

/** The entry's Put, for a transaction that writes it together with the change it records. */
export async function supportLogPut(caller: Caller, input: SupportLogInput, at: Date): Promise<{ TableName: string; Item: Record<string, unknown> }> {
  const user = await getLockUser(caller.userId);
  const entry: SupportLogEntry = {
    id: randomUUID(),
    at: at.toISOString(),
    userId: caller.userId,
    userName: user ? fullNameOf(user) : caller.username,
    action: input.action,
    accountId: input.account?.accountId ?? null,
    accountName: input.account?.name ?? null,
    details: input.details.slice(0, 300),
  };
  return { TableName: tableName('supportLog'), Item: { month: monthOf(at), sk: `${entry.at}#${entry.id}`, ...entry } };
}

/** Writes the entry; an action whose entry cannot be written fails (nothing support does goes unlogged). */
export async function logSupportAction(caller: Caller, input: SupportLogInput, at: Date): Promise<void> {
  await dynamo().send(new PutCommand(await supportLogPut(caller, input, at)));
}

/** The newest entries, newest first (this month's, then last month's). */
export async function supportLog(now: Date): Promise<SupportLogEntry[]> {
  const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const entries: SupportLogEntry[] = [];
  for (const month of [monthOf(now), monthOf(previous)]) {
    const out = await dynamo().send(
      new QueryCommand({
        TableName: tableName('supportLog'),
        KeyConditionExpression: '#month = :month',
        ExpressionAttributeNames: { '#month': 'month' },
        ExpressionAttributeValues: { ':month': month },
        ScanIndexForward: false,
        Limit: SUPPORT_LOG_LIMIT - entries.length,
      }),
    );
    for (const item of out.Items ?? []) {
      const { id, at, userId, userName, action, accountId, accountName, details } = item as SupportLogEntry;
      entries.push({ id, at, userId, userName, action, accountId: accountId ?? null, accountName: accountName ?? null, details: details ?? '' });
    }
    if (entries.length >= SUPPORT_LOG_LIMIT) break;
  }
  return entries;
}
