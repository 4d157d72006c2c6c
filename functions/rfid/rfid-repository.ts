/**
 * The `rfid-cards` table (partition `accountId`, sort `sk`): an account's cards, readers and
 * unknown reads are one Query.
 *
 * - `card#<cardId>`: a card; its put is conditional on the sort key being new, so a card id is
 *   unique in the account however many adds race. Every change is conditional on its version `v`.
 * - `reader#<readerId>`: a reader's claim on its unit, with the set of cards paired with it. A
 *   pairing writes the claim (only if there is none or it names the same unit) and the card in one
 *   transaction, so of two pairings that would put one reader on two units exactly one succeeds.
 *   Once no card is paired with a reader its claim is deleted and the reader may go on another unit.
 * - `read#<cardId>`: reads of a card the account does not have (the last one and a count).
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type QueryCommandOutput, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { rfidMessageKeys as keys } from '../../shared/schemas/rfid-messages';
import { cancellationCodes, isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors';

const CARD = 'card#';
const READER = 'reader#';
const READ = 'read#';
const MAX_ATTEMPTS = 8;

export const cardItemSchema = z.object({
  accountId: z.string(),
  sk: z.string(),
  cardId: z.string(),
  name: z.string(),
  userId: z.string().nullable().catch(null),
  description: z.string().catch(''),
  reader: z.object({ imei: z.string(), readerId: z.string(), commandId: z.string().optional() }).optional().catch(undefined),
  v: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CardItem = z.infer<typeof cardItemSchema>;

export const readerItemSchema = z.object({
  accountId: z.string(),
  sk: z.string(),
  readerId: z.string(),
  imei: z.string(),
  cards: z.union([z.set(z.string()), z.array(z.string())]).transform((v) => [...v].sort()).optional(),
});
export type ReaderItem = z.infer<typeof readerItemSchema>;

export const readItemSchema = z.object({
  accountId: z.string(),
  sk: z.string(),
  cardId: z.string(),
  imei: z.string(),
  lastReadAt: z.number(),
  reads: z.number().int(),
});
export type ReadItem = z.infer<typeof readItemSchema>;

const cardKey = (accountId: string, cardId: string) => ({ accountId, sk: `${CARD}${cardId}` });
const readerKey = (accountId: string, readerId: string) => ({ accountId, sk: `${READER}${readerId}` });

const table = () => tableName('rfidCards');
const pause = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(10 * 2 ** attempt, 200)));

/** Everything of an account: cards, readers and unknown reads, read strongly consistent. */
export async function accountRfid(accountId: string): Promise<{ cards: CardItem[]; readers: ReaderItem[]; reads: ReadItem[] }> {
  const result = { cards: [] as CardItem[], readers: [] as ReaderItem[], reads: [] as ReadItem[] };
  let start: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const raw of page.Items ?? []) {
      const sk = String(raw['sk']);
      const [list, schema] = sk.startsWith(CARD)
        ? [result.cards, cardItemSchema]
        : sk.startsWith(READER)
          ? [result.readers, readerItemSchema]
          : [result.reads, readItemSchema];
      const parsed = schema.safeParse(raw);
      if (parsed.success) (list as unknown[]).push(parsed.data);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return result;
}

/** One card of the account, or null. */
export async function findCard(accountId: string, cardId: string, consistent = true): Promise<CardItem | null> {
  const out = await dynamo().send(new GetCommand({ TableName: table(), Key: cardKey(accountId, cardId), ConsistentRead: consistent }));
  const parsed = out.Item ? cardItemSchema.safeParse(out.Item) : null;
  return parsed?.success ? parsed.data : null;
}

export async function getCard(accountId: string, cardId: string): Promise<CardItem> {
  const card = await findCard(accountId, cardId);
  if (!card) throw new NotFoundError(keys.RfidCardNotFound);
  return card;
}

/** Adds a card; a card id the account has already is 422 errors.cardId RfidCardIdTaken. */
export async function putNewCard(item: Omit<CardItem, 'sk' | 'v'>): Promise<void> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: table(),
        Item: { ...item, ...cardKey(item.accountId, item.cardId), v: 1 },
        ConditionExpression: 'attribute_not_exists(sk)',
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw new ValidationError({ cardId: [keys.RfidCardIdTaken] });
    throw error;
  }
}

/** Name, owner and description of a card as read (409 RfidCardChanged when it changed meanwhile). */
export async function updateCardFields(card: CardItem, fields: Pick<CardItem, 'name' | 'userId' | 'description'>, now: Date): Promise<CardItem> {
  const next: CardItem = { ...card, ...fields, v: card.v + 1, updatedAt: now.toISOString() };
  try {
    await dynamo().send(new PutCommand({ TableName: table(), Item: next, ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': card.v } }));
  } catch (error) {
    if (isConditionFailure(error)) throw new ConflictError(keys.RfidCardChanged);
    throw error;
  }
  return next;
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

function leaveReader(accountId: string, readerId: string, cardId: string): TransactItem {
  return {
    Update: {
      TableName: table(),
      Key: readerKey(accountId, readerId),
      UpdateExpression: 'DELETE cards :c',
      ConditionExpression: 'attribute_exists(sk)',
      ExpressionAttributeValues: { ':c': new Set([cardId]) },
    },
  };
}

/** Deletes a reader's claim once no card is paired with it (best effort: a pairing in between keeps it). */
async function releaseIfEmpty(accountId: string, readerId: string): Promise<void> {
  try {
    await dynamo().send(new DeleteCommand({ TableName: table(), Key: readerKey(accountId, readerId), ConditionExpression: 'attribute_not_exists(cards)' }));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Runs a card transaction whose first item is the card's own (versioned) write. A failed condition
 * on the card is 409 RfidCardChanged, on `claimIndex` (the reader's claim) 409
 * RfidReaderAlreadyPaired; a conflict with a concurrent transaction is tried again with `retry`.
 */
async function commitCard(items: TransactItem[], claimIndex: number): Promise<void> {
  try {
    await dynamo().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    const codes = cancellationCodes(error);
    if (!codes) throw error;
    if (claimIndex >= 0 && codes[claimIndex] === 'ConditionalCheckFailed') throw new ConflictError(keys.RfidReaderAlreadyPaired);
    if (codes.includes('ConditionalCheckFailed')) throw new ConflictError(keys.RfidCardChanged);
    throw new RetryableConflict();
  }
}

class RetryableConflict extends Error {
  override name = 'RetryableConflict';
}

/** Retries `attempt` (which reads afresh) while it loses to concurrent transactions. */
async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof RetryableConflict)) throw error;
      if (i >= MAX_ATTEMPTS) throw new ConflictError(keys.RfidCardChanged);
      await pause(i);
    }
  }
}

const cardPut = (card: CardItem, previousV: number): TransactItem => ({
  Put: { TableName: table(), Item: card, ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': previousV } },
});

/**
 * Pairs a card with the reader `readerId` on unit `imei`: the reader's claim (new, or already on
 * that unit) and the card move together. A card paired with another reader leaves it. Answers
 * the card as written and the reader it left, if any.
 */
export async function pairCardWithReader(accountId: string, cardId: string, imei: string, readerId: string, now: Date): Promise<{ card: CardItem; left: CardItem['reader'] }> {
  return withRetries(async () => {
    const card = await getCard(accountId, cardId);
    const left = card.reader && (card.reader.readerId !== readerId || card.reader.imei !== imei) ? card.reader : undefined;
    const next: CardItem = { ...card, reader: { imei, readerId }, v: card.v + 1, updatedAt: now.toISOString() };
    const items: TransactItem[] = [
      cardPut(next, card.v),
      {
        Update: {
          TableName: table(),
          Key: readerKey(accountId, readerId),
          UpdateExpression: 'SET readerId = :r, imei = :i ADD cards :c',
          ConditionExpression: 'attribute_not_exists(sk) OR imei = :i',
          ExpressionAttributeValues: { ':r': readerId, ':i': imei, ':c': new Set([cardId]) },
        },
      },
    ];
    if (left && left.readerId !== readerId) items.push(leaveReader(accountId, left.readerId, cardId));
    await commitCard(items, 1);
    if (left && left.readerId !== readerId) await releaseIfEmpty(accountId, left.readerId);
    return { card: next, left };
  });
}

/** Records the pairRfid command sent for the card's pairing, if the card is still paired so. */
export async function setPairingCommand(card: CardItem, commandId: string): Promise<CardItem> {
  const reader = card.reader;
  if (!reader) return card;
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: cardKey(card.accountId, card.cardId),
        UpdateExpression: 'SET reader.commandId = :c',
        ConditionExpression: 'reader.readerId = :r AND reader.imei = :i',
        ExpressionAttributeValues: { ':c': commandId, ':r': reader.readerId, ':i': reader.imei },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  return { ...card, reader: { ...reader, commandId } };
}

/** Takes the card off its reader; null when it is not paired. */
export async function unpairCard(accountId: string, cardId: string, now: Date): Promise<{ card: CardItem; left: NonNullable<CardItem['reader']> } | null> {
  return withRetries(async () => {
    const card = await getCard(accountId, cardId);
    const left = card.reader;
    if (!left) return null;
    const next: CardItem = { ...card, v: card.v + 1, updatedAt: now.toISOString() };
    delete next.reader;
    await commitCard([cardPut(next, card.v), leaveReader(accountId, left.readerId, cardId)], -1);
    await releaseIfEmpty(accountId, left.readerId);
    return { card: next, left };
  });
}

/** Deletes the card (and its place on its reader); answers the reader it was paired with. */
export async function deleteCard(accountId: string, cardId: string): Promise<CardItem['reader']> {
  return withRetries(async () => {
    const card = await getCard(accountId, cardId);
    const items: TransactItem[] = [
      { Delete: { TableName: table(), Key: cardKey(accountId, cardId), ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': card.v } } },
    ];
    if (card.reader) items.push(leaveReader(accountId, card.reader.readerId, cardId));
    await commitCard(items, -1);
    if (card.reader) await releaseIfEmpty(accountId, card.reader.readerId);
    return card.reader;
  });
}

/** Notes a read of a card the account does not have: the last read and a count, one item per card. */
export async function noteUnknownRead(accountId: string, cardId: string, imei: string, readAt: number): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: { accountId, sk: `${READ}${cardId}` },
      UpdateExpression: 'SET cardId = :c, imei = :i, lastReadAt = :t ADD #reads :one',
      ExpressionAttributeNames: { '#reads': 'reads' },
      ExpressionAttributeValues: { ':c': cardId, ':i': imei, ':t': readAt, ':one': 1 },
    }),
  );
}

/** Forgets the unknown reads of a card (it was added). */
export async function clearUnknownRead(accountId: string, cardId: string): Promise<void> {
  await dynamo().send(new DeleteCommand({ TableName: table(), Key: { accountId, sk: `${READ}${cardId}` } }));
}
