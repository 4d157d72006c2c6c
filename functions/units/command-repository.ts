/**
 * Device commands in the `commands` table (pk imei, sk commandId) and the one pointer that keeps
 * the state machine honest under concurrency: `openCommand` on the unit's item names the command
 * still waiting for its answer (pending or unanswered). Every transition that opens or closes a
 * command moves that pointer in the same transaction, on the condition that it still holds what
 * was read, so two simultaneous commands for one unit can never both stay open.
 *
 * A command carries `pendingBucket`/`pendingSince` (the sparse `pending` index) only while it is
 * pending, and an `expiresAt` (TTL) only once it is closed: an open command is never expired away
 * from under the pointer.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import {
  COMMAND_ANSWER_WAIT_SECONDS,
  type Command,
  type CommandRequest,
  type ServiceCommandRequest,
  type CommandStatus,
  type CommandType,
  type OperatingModeParams,
} from '../../shared/schemas/commands';
import { commandMessageKeys } from '../../shared/schemas/commands-messages';
import { dynamo, epochSeconds, tableName } from '../platform/db';
import { ConflictError, NotFoundError } from '../platform/errors';
import { closeUnitCommandUpdate, getUnitCommandState, openUnitCommandUpdate, unitCommandStateOf, type UnitCommandState } from '../domain/unit/commands';
import type { OpenCommand, UnitItem } from '../domain/unit/schema';
import { isConditionFailure, lostTransactionRace, transactionConditionFailed } from '../platform/conditions';

/** Closed commands (acknowledged, failed, cancelled) are kept this long for the unit's history. */
export const COMMAND_RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;
const WAIT_MS = COMMAND_ANSWER_WAIT_SECONDS * 1000;
/** The one partition of the sparse `pending` index: commands come from people, far below a partition's write limit. */
const PENDING_BUCKET = 'pending';
/** Each lost race is a winner's commit, so ten simultaneous commands need at most ten rounds; the rest is slack. */
const MAX_ATTEMPTS = 25;

export interface CommandItem {
  imei: string;
  commandId: string;
  accountId: string;
  type: CommandType;
  params: Command['params'];
  status: CommandStatus;
  /** ISO 8601 UTC. */
  createdAt: string;
  updatedAt: string;
  answeredAt?: string;
  /** Message key of a failure (ModeChangeFailed, CommandFailed). */
  error?: string;
  /** What the tracker said when it refused, for support; not part of the API. */
  deviceError?: string;
  pendingBucket?: string;
  pendingSince?: number;
  expiresAt?: number;
}

export function toCommand(item: CommandItem): Command {
  return {
    id: item.commandId,
    imei: item.imei,
    type: item.type,
    params: item.params,
    status: item.status,
    createdAt: item.createdAt,
    answeredAt: item.answeredAt ?? null,
    updatedAt: item.updatedAt,
    error: item.error ?? null,
  };
}

/** Sortable by creation time (fixed-width epoch ms first), unique by its random tail. */
export function newCommandId(at: Date): string {
  return `${String(at.getTime()).padStart(13, '0')}-${randomBytes(8).toString('hex')}`;
}

const isOpen = (status: CommandStatus) => status === 'pending' || status === 'unanswered';
const expiry = (at: Date) => epochSeconds(new Date(at.getTime() + COMMAND_RETENTION_DAYS * DAY_MS));

const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(10 * 2 ** attempt, 200)));

export async function getCommandItem(imei: string, commandId: string): Promise<CommandItem | null> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('commands'), Key: { imei, commandId }, ConsistentRead: true }));
  return (out.Item as CommandItem | undefined) ?? null;
}

/** The unit's unacknowledged command, if it has one. */
export async function getOpenCommand(imei: string): Promise<CommandItem | null> {
  const state = await getUnitCommandState(imei);
  return state?.open ? getCommandItem(imei, state.open.id) : null;
}

function requestParts(request: CommandRequest | ServiceCommandRequest): { type: CommandType; params: Command['params']; label?: { output: number; text: string } } {
  if ('params' in request) return { type: request.type, params: request.params };
  if (request.type === 'operatingMode') return { type: 'operatingMode', params: { mode: request.mode } };
  const { output, on, durationSeconds, label } = request;
  return {
    type: 'dout',
    params: { output, on, ...(durationSeconds === undefined ? {} : { durationSeconds }) },
    ...(label === undefined ? {} : { label: { output, text: label } }),
  };
}

/**
 * Saves a new pending command for a unit the caller may use, cancelling the unit's unacknowledged
 * one, and saves a DOUT label on the unit. A DOUT command while a DOUT command younger than 120 s
 * waits for its answer is refused (409 DoutAwaitingAnswer). Returns the new command and, when one
 * was cancelled, that one.
 */
export async function createCommand(
  unit: Pick<UnitItem, 'imei' | 'accountId' | 'doutLabels' | 'openCommand'>,
  request: CommandRequest | ServiceCommandRequest,
  now: Date,
): Promise<{ command: Command; cancelled: Command | null }> {
  const { imei, accountId } = unit;
  const { type, params, label } = requestParts(request);
  const at = now.toISOString();
  const commandId = newCommandId(now);
  const item: CommandItem = {
    imei,
    commandId,
    accountId,
    type,
    params,
    status: 'pending',
    createdAt: at,
    updatedAt: at,
    pendingBucket: PENDING_BUCKET,
    pendingSince: now.getTime(),
  };
  const pointer: OpenCommand = { id: commandId, type, createdAt: now.getTime() };

  // The first attempt trusts the unit as the caller just read it (the transaction's condition checks
  // it); a lost race, or a refusal that an answer might just have lifted, reads it strongly consistent.
  let seen: UnitCommandState = unitCommandStateOf(unit);
  let consistent = false;
  const readAgain = async () => {
    const fresh = await getUnitCommandState(imei);
    // The unit went away or changed hands meanwhile: for this caller it no longer exists.
    if (!fresh || fresh.accountId !== accountId) throw new NotFoundError();
    seen = fresh;
    consistent = true;
  };
  for (let attempt = 1; ; attempt++) {
    const { open } = seen;
    if (type === 'dout' && open?.type === 'dout' && now.getTime() - open.createdAt < WAIT_MS) {
      if (consistent) throw new ConflictError(commandMessageKeys.DoutAwaitingAnswer);
      await readAgain();
      continue;
    }

    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [
            openUnitCommandUpdate(imei, seen, pointer, label),
            { Put: { TableName: tableName('commands'), Item: { ...item }, ConditionExpression: 'attribute_not_exists(commandId)' } },
            ...(open
              ? [
                  {
                    Update: {
                      TableName: tableName('commands'),
                      Key: { imei, commandId: open.id },
                      UpdateExpression: 'SET #s = :cancelled, updatedAt = :at, expiresAt = :exp REMOVE pendingBucket, pendingSince',
                      ConditionExpression: '#s IN (:pending, :unanswered)',
                      ExpressionAttributeNames: { '#s': 'status' },
                      ExpressionAttributeValues: { ':cancelled': 'cancelled', ':at': at, ':exp': expiry(now), ':pending': 'pending', ':unanswered': 'unanswered' },
                    },
                  },
                ]
              : []),
          ],
        }),
      );
      const cancelled = open ? await getCommandItem(imei, open.id) : null;
      return { command: toCommand(item), cancelled: cancelled ? toCommand(cancelled) : null };
    } catch (error) {
      if (!lostTransactionRace(error)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new ConflictError();
      await pause(attempt);
      await readAgain();
    }
  }
}

export type Answer = { ok: true } | { ok: false; deviceError?: string };

/**
 * The tracker's answer to a command: acknowledged, or failed with the key the browser shows. Only
 * an open command (pending, or unanswered after 120 s) takes an answer; null when the command is
 * unknown, cancelled or already answered, so a redelivered answer changes nothing. An acknowledged
 * operating mode becomes the unit's `operatingMode`.
 */
export async function answerCommand(imei: string, commandId: string, answer: Answer, at: Date): Promise<{ command: Command; accountId: string } | null> {
  for (let attempt = 1; ; attempt++) {
    const item = await getCommandItem(imei, commandId);
    if (!item || !isOpen(item.status)) return null;
    const iso = at.toISOString();
    const closed: CommandItem = {
      ...item,
      status: answer.ok ? 'acknowledged' : 'failed',
      answeredAt: iso,
      updatedAt: iso,
      expiresAt: expiry(at),
      ...(answer.ok ? {} : { error: item.type === 'operatingMode' ? commandMessageKeys.ModeChangeFailed : commandMessageKeys.CommandFailed }),
      ...(!answer.ok && answer.deviceError ? { deviceError: answer.deviceError.slice(0, 500) } : {}),
    };
    delete closed.pendingBucket;
    delete closed.pendingSince;
    const setMode = answer.ok && item.type === 'operatingMode' && 'mode' in item.params;
    try {
      await dynamo().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: tableName('commands'),
                Item: { ...closed },
                ConditionExpression: '#s IN (:pending, :unanswered)',
                ExpressionAttributeNames: { '#s': 'status' },
                ExpressionAttributeValues: { ':pending': 'pending', ':unanswered': 'unanswered' },
              },
            },
            closeUnitCommandUpdate(imei, commandId, setMode ? (item.params as OperatingModeParams).mode : undefined),
          ],
        }),
      );
      return { command: toCommand(closed), accountId: item.accountId };
    } catch (error) {
      // A condition failed: the command was cancelled or answered meanwhile, which is an answer too.
      if (transactionConditionFailed(error)) return null;
      if (!lostTransactionRace(error) || attempt >= MAX_ATTEMPTS) throw error;
      await pause(attempt);
    }
  }
}

/**
 * Pending commands created at or before `before` become unanswered (the poor-coverage message). They
 * stay open: a late answer still acknowledges them, the next command cancels them. The index is
 * eventually consistent, so each change is conditional on the command still being pending.
 */
export async function markUnanswered(before: Date, at: Date): Promise<CommandItem[]> {
  const changed: CommandItem[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('commands'),
        IndexName: 'pending',
        KeyConditionExpression: 'pendingBucket = :b AND pendingSince <= :t',
        ExpressionAttributeValues: { ':b': PENDING_BUCKET, ':t': before.getTime() },
        ProjectionExpression: 'imei, commandId',
        Limit: 100,
        ExclusiveStartKey: start,
      }),
    );
    const done = await Promise.all(
      ((page.Items ?? []) as Array<Pick<CommandItem, 'imei' | 'commandId'>>).map(async ({ imei, commandId }) => {
        try {
          const out = await dynamo().send(
            new UpdateCommand({
              TableName: tableName('commands'),
              Key: { imei, commandId },
              UpdateExpression: 'SET #s = :unanswered, updatedAt = :at REMOVE pendingBucket, pendingSince',
              ConditionExpression: '#s = :pending',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: { ':unanswered': 'unanswered', ':pending': 'pending', ':at': at.toISOString() },
              ReturnValues: 'ALL_NEW',
            }),
          );
          return out.Attributes as CommandItem;
        } catch (error) {
          if (isConditionFailure(error)) return null;
          throw error;
        }
      }),
    );
    for (const item of done) if (item) changed.push(item);
    start = page.LastEvaluatedKey;
  } while (start);
  return changed;
}

/** A unit's commands of this account, newest first. */
export async function listCommands(imei: string, accountId: string, limit: number): Promise<Command[]> {
  const commands: Command[] = [];
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('commands'),
        KeyConditionExpression: 'imei = :i',
        // A re-registered IMEI must not show the previous owner's commands.
        FilterExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':i': imei, ':a': accountId },
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of (page.Items ?? []) as CommandItem[]) if (commands.length < limit) commands.push(toCommand(item));
    start = page.LastEvaluatedKey;
  } while (start && commands.length < limit);
  return commands;
}
