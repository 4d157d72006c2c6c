/** The rfid capability's routes (spread into the manifest, shared/routes.ts); docs/decisions/0022-rfid.md. */
import { z } from 'zod';
import {
  rfidCardAddSchema,
  rfidCardCreatedSchema,
  rfidCardListSchema,
  rfidCardParamSchema,
  rfidCardSchema,
  rfidCardUpdateSchema,
  rfidPairRequestSchema,
} from '../schemas/rfid';
import { defineRoute } from '../route-def';

const nothing = z.null();
const admin = '/api/v1/administration/rfid-cards';
const cardRules =
  'Name required, at most 50 (RfidCardNameRequired, RfidCardNameTooLong); description at most 200 (RfidDescriptionTooLong); the owner is a user of the account (RfidCardOwnerRequired, RfidCardOwnerInvalid).';

export const rfidRoutes = {
  getRfidCards: defineRoute({
    operationId: 'getRfidCards',
    method: 'GET',
    path: admin,
    capability: 'rfid',
    file: 'get-rfid-cards',
    access: 'admin',
    feature: 'rfid',
    summary:
      "The account's RFID cards by name, each with its owner and paired reader (the pairRfid command's state: pending, unanswered, paired, failed, cancelled), the account's users to choose an owner from, and reads of cards the account does not have.",
    response: rfidCardListSchema,
  }),
  addRfidCard: defineRoute({
    operationId: 'addRfidCard',
    method: 'POST',
    path: '/api/v1/user/rfid-cards',
    capability: 'rfid',
    file: 'post-rfid-card',
    access: 'member',
    feature: 'rfid',
    summary: `Adds a card (the phone app, and the portal for a card a reader read that the account does not have: its unknown reads are forgotten). cardId: 1-32 letters, digits, - or _, stored upper case (RfidCardIdRequired, RfidCardIdInvalid), unique in the account also when two adds race (RfidCardIdTaken). The owner defaults to the caller; an ordinary user may name only themself. ${cardRules}`,
    body: rfidCardAddSchema,
    response: rfidCardCreatedSchema,
  }),
  updateRfidCard: defineRoute({
    operationId: 'updateRfidCard',
    method: 'PUT',
    path: `${admin}/{cardId}`,
    capability: 'rfid',
    file: 'put-rfid-card',
    access: 'admin',
    feature: 'rfid',
    summary: `Edits a card's name, owner and description (404 RfidCardNotFound). ${cardRules}`,
    params: rfidCardParamSchema,
    body: rfidCardUpdateSchema,
    response: rfidCardSchema,
  }),
  deleteRfidCard: defineRoute({
    operationId: 'deleteRfidCard',
    method: 'DELETE',
    path: `${admin}/{cardId}`,
    capability: 'rfid',
    file: 'delete-rfid-card',
    access: 'admin',
    feature: 'rfid',
    summary: "Deletes a card; a paired card is unpaired first (a pairRfid command with paired false to its unit's reader).",
    params: rfidCardParamSchema,
    response: nothing,
  }),
  pairRfidCard: defineRoute({
    operationId: 'pairRfidCard',
    method: 'POST',
    path: `${admin}/{cardId}/pair`,
    capability: 'rfid',
    file: 'post-rfid-card-pair',
    access: 'admin',
    feature: 'rfid',
    summary:
      "Pairs the card with the reader `readerId` on the unit `imei` of the account (RfidUnitNotFound; a Teltonika unit: RfidPairNotSupported): sends the pairRfid command, pending until the tracker acknowledges it. A reader belongs to one unit: one paired with another unit is 409 RfidReaderAlreadyPaired, also when two pairings race. A card paired elsewhere moves.",
    params: rfidCardParamSchema,
    body: rfidPairRequestSchema,
    response: rfidCardSchema,
  }),
  unpairRfidCard: defineRoute({
    operationId: 'unpairRfidCard',
    method: 'POST',
    path: `${admin}/{cardId}/unpair`,
    capability: 'rfid',
    file: 'post-rfid-card-unpair',
    access: 'admin',
    feature: 'rfid',
    summary: "Unpairs the card from its reader (a pairRfid command with paired false; 409 RfidCardNotPaired); the reader is free for another unit once no card is paired with it.",
    params: rfidCardParamSchema,
    response: rfidCardSchema,
  }),
} as const;
