/**
 * RFID cards (docs/decisions/0022-rfid.md): the list with each pairing's state, adding a card (the
 * phone app), editing, pairing with a unit's reader and unpairing through the device command
 * service (`pairRfid`), and deleting.
 *
 * A card's owner is a user of the account: whom a read of the card checks in as the unit's driver
 * (functions/rfid/read-effect.ts). The portal requires one (spec: card name and owner required);
 * a card added in the app belongs to the app's user unless it names another (admins only).
 */
import type { Command } from '../../shared/schemas/commands';
import type { z } from 'zod';
import {
  pairingStatusOf,
  type RfidCard,
  type RfidCardList,
  type RfidUnknownRead,
  type rfidCardAddSchema,
  type rfidCardUpdateSchema,
  type rfidPairRequestSchema,
} from '../../shared/schemas/rfid';
import { rfidMessageKeys as keys } from '../../shared/schemas/rfid-messages';
import type { AuthContext } from '../platform/auth-context';
import { ConflictError, ValidationError } from '../platform/errors';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { getUnitItem } from '../domain/unit/reads';
import type { UnitItem } from '../domain/unit/schema';
import { accountUser, accountUsers, fullName } from '../trips/people';
import { getCommandItem } from '../units/command-repository';
import { sendCommand } from '../units/command-service';
import {
  accountRfid,
  clearUnknownRead,
  deleteCard,
  getCard,
  pairCardWithReader,
  putNewCard,
  setPairingCommand,
  unpairCard,
  updateCardFields,
  type CardItem,
} from './rfid-repository';

type Caller = Pick<AuthContext, 'accountId' | 'userId' | 'isAdmin'>;
type CommandPorts = Pick<Ports, 'devices' | 'live' | 'clock'>;

async function unitNames(imeis: Iterable<string>): Promise<Map<string, UnitItem>> {
  const units = await Promise.all([...new Set(imeis)].map((imei) => getUnitItem(imei)));
  return new Map(units.filter((u): u is UnitItem => u !== null).map((u) => [u.imei, u]));
}

async function toCard(card: CardItem, accountId: string, names: ReadonlyMap<string, string>, units: ReadonlyMap<string, UnitItem>): Promise<RfidCard> {
  let reader: RfidCard['reader'] = null;
  if (card.reader) {
    const command = card.reader.commandId ? await getCommandItem(card.reader.imei, card.reader.commandId) : null;
    const unit = units.get(card.reader.imei);
    reader = {
      imei: card.reader.imei,
      unitName: unit && unit.accountId === accountId ? unit.name : null,
      readerId: card.reader.readerId,
      status: command ? pairingStatusOf(command.status) : 'pending',
      commandId: card.reader.commandId ?? null,
    };
  }
  return {
    cardId: card.cardId,
    name: card.name,
    userId: card.userId,
    userName: card.userId ? (names.get(card.userId) ?? null) : null,
    description: card.description,
    reader,
    createdAt: card.createdAt,
  };
}

export async function listCards(caller: Caller, locale = 'sv'): Promise<RfidCardList> {
  const [{ cards, reads }, users] = await Promise.all([accountRfid(caller.accountId), accountUsers(caller.accountId)]);
  const names = new Map(users.map((u) => [u.userId, fullName(u)]));
  const units = await unitNames([...cards.flatMap((c) => (c.reader ? [c.reader.imei] : [])), ...reads.map((r) => r.imei)]);
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  const known = new Set(cards.map((c) => c.cardId));
  const unknownReads: RfidUnknownRead[] = reads
    .filter((r) => !known.has(r.cardId))
    .sort((a, b) => b.lastReadAt - a.lastReadAt)
    .map((r) => {
      const unit = units.get(r.imei);
      return {
        cardId: r.cardId,
        imei: r.imei,
        unitName: unit && unit.accountId === caller.accountId ? unit.name : null,
        lastReadAt: new Date(r.lastReadAt).toISOString(),
        reads: r.reads,
      };
    });
  return {
    cards: await Promise.all(
      cards.sort((a, b) => collator.compare(a.name, b.name) || collator.compare(a.cardId, b.cardId)).map((c) => toCard(c, caller.accountId, names, units)),
    ),
    users: users
      .map((u) => ({ id: u.userId, name: fullName(u) || u.userId }))
      .sort((a, b) => collator.compare(a.name, b.name) || collator.compare(a.id, b.id)),
    unknownReads,
  };
}

async function ownerName(caller: Caller, userId: string): Promise<string> {
  const user = await accountUser(caller.accountId, userId);
  if (!user) throw new ValidationError({ userId: [keys.RfidCardOwnerInvalid] });
  return fullName(user);
}

/** The phone app adds a card: unique id in the account; the owner is the caller unless an admin names another user. */
export async function addCard(caller: Caller, body: z.output<typeof rfidCardAddSchema>, now: Date): Promise<string> {
  const userId = body.userId ?? caller.userId;
  if (!caller.isAdmin && userId !== caller.userId) throw new ValidationError({ userId: [keys.RfidCardOwnerInvalid] });
  await ownerName(caller, userId);
  const at = now.toISOString();
  await putNewCard({ accountId: caller.accountId, cardId: body.cardId, name: body.name, userId, description: body.description, createdAt: at, updatedAt: at });
  await clearUnknownRead(caller.accountId, body.cardId);
  return body.cardId;
}

async function oneCard(caller: Caller, card: CardItem): Promise<RfidCard> {
  const names = new Map<string, string>();
  if (card.userId) {
    const user = await accountUser(caller.accountId, card.userId);
    if (user) names.set(user.userId, fullName(user));
  }
  return toCard(card, caller.accountId, names, await unitNames(card.reader ? [card.reader.imei] : []));
}

export async function updateCard(caller: Caller, cardId: string, body: z.output<typeof rfidCardUpdateSchema>, now: Date): Promise<RfidCard> {
  const card = await getCard(caller.accountId, cardId);
  await ownerName(caller, body.userId);
  return oneCard(caller, await updateCardFields(card, { name: body.name, userId: body.userId, description: body.description }, now));
}

/** Sends a pairRfid command to a reader's unit; a failure is logged (the pairing's state shows it). */
async function sendPairing(imei: string, accountId: string, readerId: string, cardId: string, paired: boolean, ports: CommandPorts): Promise<Command | null> {
  const unit = await getUnitItem(imei);
  if (!unit || unit.accountId !== accountId) return null;
  try {
    return await sendCommand(unit, { type: 'pairRfid', params: { readerId, cardId, paired } }, ports);
  } catch (error) {
    logger.warn('rfid pairing command not saved', { imei, cardId, paired, error: error instanceof Error ? error.message : String(error) });
    return null;
  }
}

export async function pairCard(caller: Caller, cardId: string, body: z.output<typeof rfidPairRequestSchema>, ports: CommandPorts): Promise<RfidCard> {
  await getCard(caller.accountId, cardId);
  const unit = await getUnitItem(body.imei);
  if (!unit || unit.accountId !== caller.accountId) throw new ValidationError({ imei: [keys.RfidUnitNotFound] });
  // Teltonika trackers have no text command for a reader's card list.
  if (unit.protocol !== 'native') throw new ValidationError({ imei: [keys.RfidPairNotSupported] });
  const { card, left } = await pairCardWithReader(caller.accountId, cardId, unit.imei, body.readerId, ports.clock.now());
  if (left) await sendPairing(left.imei, caller.accountId, left.readerId, cardId, false, ports);
  const command = await sendCommand(unit, { type: 'pairRfid', params: { readerId: body.readerId, cardId, paired: true } }, ports);
  return oneCard(caller, await setPairingCommand(card, command.id));
}

export async function unpair(caller: Caller, cardId: string, ports: CommandPorts): Promise<RfidCard> {
  const result = await unpairCard(caller.accountId, cardId, ports.clock.now());
  if (!result) throw new ConflictError(keys.RfidCardNotPaired);
  await sendPairing(result.left.imei, caller.accountId, result.left.readerId, cardId, false, ports);
  return oneCard(caller, result.card);
}

export async function removeCard(caller: Caller, cardId: string, ports: CommandPorts): Promise<void> {
  const left = await deleteCard(caller.accountId, cardId);
  if (left) await sendPairing(left.imei, caller.accountId, left.readerId, cardId, false, ports);
}
