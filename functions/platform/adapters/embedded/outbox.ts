/**
 * The outbox: what the embedded runtime "sends" instead of SES, SNS, the push provider and
 * Autoplan. One writer serves the four ports; the dev route GET /api/dev/outbox and the dev page read it back.
 *
 * Layout (shared/tables.ts `outbox`): partition `kind`, sort `sentAtId` = `<ISO sentAt>#<id>`, so
 * a Query newest-first is a reverse range read; GSI `byRecipient` on `to` with the same sort key.
 * The id starts with a per-process counter, so two messages sent in the same millisecond (a 2FA
 * code and its resend) still sort in the order they were sent.
 */
import { randomBytes } from 'node:crypto';
import { PutCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { outboxKinds, type OutboxKind, type OutboxMessage } from '../../../../shared/schemas/system';
import { dynamo, epochSeconds, tableName } from '../../db';
import {
  assertE164,
  type Autoplan,
  type AutoplanSubmission,
  type EmailMessage,
  type Mailer,
  type PushMessage,
  type PushSender,
  type SmsMessage,
  type SmsSender,
} from '../../ports';

const KEEP_SECONDS = 30 * 24 * 3600;

export interface OutboxEntry {
  kind: OutboxKind;
  to: string;
  subject?: string;
  text: string;
  html?: string;
  data?: Record<string, string>;
}

interface OutboxItem {
  kind: OutboxKind;
  sentAtId: string;
  id: string;
  to: string;
  subject?: string;
  text: string;
  html?: string;
  /** Push data as JSON. */
  data?: string;
  sentAt: string;
  expiresAt: number;
}

/** E-mail addresses compare case-insensitively; phone numbers and push ids exactly. */
export function outboxAddress(to: string): string {
  const trimmed = to.trim();
  return trimmed.includes('@') ? trimmed.toLowerCase() : trimmed;
}

let sequence = 0;
function nextId(): string {
  sequence = (sequence + 1) % 36 ** 8;
  return `${sequence.toString(36).padStart(8, '0')}${randomBytes(6).toString('hex')}`;
}

function toMessage(item: OutboxItem): OutboxMessage {
  const message: OutboxMessage = { id: item.id, kind: item.kind, to: item.to, text: item.text, sentAt: item.sentAt };
  if (item.subject !== undefined) message.subject = item.subject;
  if (item.html !== undefined) message.html = item.html;
  return message;
}

export async function writeOutbox(entry: OutboxEntry, now: Date = new Date()): Promise<OutboxMessage> {
  const id = nextId();
  const sentAt = now.toISOString();
  const item: OutboxItem = {
    kind: entry.kind,
    sentAtId: `${sentAt}#${id}`,
    id,
    to: outboxAddress(entry.to),
    text: entry.text,
    sentAt,
    expiresAt: epochSeconds(now) + KEEP_SECONDS,
  };
  if (entry.subject !== undefined) item.subject = entry.subject;
  if (entry.html !== undefined) item.html = entry.html;
  if (entry.data !== undefined) item.data = JSON.stringify(entry.data);
  await dynamo().send(new PutCommand({ TableName: tableName('outbox'), Item: item }));
  return toMessage(item);
}

export interface OutboxQuery {
  to?: string | undefined;
  kind?: OutboxKind | undefined;
  limit: number;
}

/** Pages through a newest-first Query until `limit` items passed the filter or nothing is left. */
async function queryNewestFirst(input: QueryCommandInput, limit: number): Promise<OutboxItem[]> {
  const items: OutboxItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await dynamo().send(
      new QueryCommand({ ...input, ScanIndexForward: false, Limit: limit, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }),
    );
    items.push(...((out.Items ?? []) as OutboxItem[]));
    startKey = out.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return items.slice(0, limit);
}

/** Newest first. Only Queries: by recipient through the GSI, otherwise one partition per kind. */
export async function readOutbox(query: OutboxQuery): Promise<OutboxMessage[]> {
  const TableName = tableName('outbox');
  if (query.to !== undefined) {
    const input: QueryCommandInput = {
      TableName,
      IndexName: 'byRecipient',
      KeyConditionExpression: '#to = :to',
      ExpressionAttributeNames: { '#to': 'to' },
      ExpressionAttributeValues: { ':to': outboxAddress(query.to) },
    };
    if (query.kind) {
      input.FilterExpression = '#kind = :kind';
      input.ExpressionAttributeNames = { ...input.ExpressionAttributeNames, '#kind': 'kind' };
      input.ExpressionAttributeValues = { ...input.ExpressionAttributeValues, ':kind': query.kind };
    }
    return (await queryNewestFirst(input, query.limit)).map(toMessage);
  }
  const kinds = query.kind ? [query.kind] : outboxKinds;
  const perKind = await Promise.all(
    kinds.map((kind) =>
      queryNewestFirst(
        {
          TableName,
          KeyConditionExpression: '#kind = :kind',
          ExpressionAttributeNames: { '#kind': 'kind' },
          ExpressionAttributeValues: { ':kind': kind },
        },
        query.limit,
      ),
    ),
  );
  return perKind
    .flat()
    .sort((a, b) => (a.sentAtId < b.sentAtId ? 1 : a.sentAtId > b.sentAtId ? -1 : 0))
    .slice(0, query.limit)
    .map(toMessage);
}

export function createOutboxMailer(now: () => Date = () => new Date()): Mailer {
  return {
    async send(message: EmailMessage) {
      await writeOutbox({ kind: 'email', to: message.to, subject: message.subject, text: message.text, html: message.html }, now());
    },
  };
}

export function createOutboxSms(now: () => Date = () => new Date()): SmsSender {
  return {
    async send(message: SmsMessage) {
      assertE164(message.to);
      await writeOutbox({ kind: 'sms', to: message.to, text: message.text }, now());
    },
  };
}

export function createOutboxPush(now: () => Date = () => new Date()): PushSender {
  return {
    async send(message: PushMessage) {
      await writeOutbox(
        { kind: 'push', to: message.to, subject: message.title, text: message.text, ...(message.data ? { data: message.data } : {}) },
        now(),
      );
    },
  };
}

/**
 * Autoplan in the embedded runtime: the report as Autoplan would get it, under the vehicle's
 * registration number (GET /api/dev/outbox?kind=autoplan). It always takes the report; its receipt
 * is the outbox message's id.
 */
export function createOutboxAutoplan(now: () => Date = () => new Date()): Autoplan {
  return {
    async report(submission: AutoplanSubmission) {
      const { accountId: _account, idempotencyKey: _key, ...figures } = submission;
      const text = Object.entries(figures)
        .map(([name, value]) => `${name}: ${value === null ? '-' : String(value)}`)
        .join('\n');
      const sent = await writeOutbox({ kind: 'autoplan', to: submission.registrationNumber, subject: `Autoplan ${submission.month} ${submission.registrationNumber}`, text }, now());
      return { status: 'accepted', reference: sent.id };
    },
  };
}
