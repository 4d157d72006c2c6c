/**
 * RFID cards and readers (spec sections 2, 3, 4, 6 and 8; docs/decisions/0022-rfid.md). A card has
 * an id (what the reader reports), a name, its owner (a user of the account: the driver its reads
 * check in), a description and the reader it is paired with. A reader is known by its id and sits
 * on one unit; pairing a card with it is a device command (`pairRfid`) that stays pending until
 * the tracker acknowledges it. Cards are added by the phone app only (POST /user/rfid-cards).
 * Validation messages are message keys (shared/schemas/rfid-messages.ts).
 */
import { z } from 'zod';
import type { commandStatuses } from './commands';
import { IMEI_PATTERN } from '../validators/imei';
import { rfidMessageKeys as keys } from './rfid-messages';

export const RFID_CARD_NAME_MAX = 50;
export const RFID_DESCRIPTION_MAX = 200;
export const RFID_ID_PATTERN = /^[A-Z0-9_-]{1,32}$/;

/**
 * A card or reader id as stored and compared: trimmed and upper case, so that `a1b2` typed in the
 * app and `A1B2` reported by the reader are the same card.
 */
export const normalizeRfidId = (id: string): string => id.trim().toUpperCase();

const idSchema = (required: string, invalid: string) =>
  z
    .string({ message: required })
    .transform(normalizeRfidId)
    .superRefine((id, ctx) => {
      if (!id) ctx.addIssue({ code: 'custom', message: required });
      else if (!RFID_ID_PATTERN.test(id)) ctx.addIssue({ code: 'custom', message: invalid });
    });

const nameSchema = z
  .string({ message: keys.RfidCardNameRequired })
  .trim()
  .min(1, keys.RfidCardNameRequired)
  .max(RFID_CARD_NAME_MAX, keys.RfidCardNameTooLong);
const descriptionSchema = z.string({ message: keys.RfidDescriptionTooLong }).trim().max(RFID_DESCRIPTION_MAX, keys.RfidDescriptionTooLong);
const userIdSchema = z.string({ message: keys.RfidCardOwnerRequired }).trim().min(1, keys.RfidCardOwnerRequired).max(64, keys.RfidCardOwnerInvalid);

/** POST /api/v1/user/rfid-cards (the phone app): the owner defaults to the caller. */
export const rfidCardAddSchema = z.object({
  cardId: idSchema(keys.RfidCardIdRequired, keys.RfidCardIdInvalid),
  name: nameSchema,
  userId: userIdSchema.optional(),
  description: descriptionSchema.default(''),
});
export type RfidCardAddRequest = z.input<typeof rfidCardAddSchema>;

/** PUT /api/v1/administration/rfid-cards/{cardId}: name and owner required. */
export const rfidCardUpdateSchema = z.object({
  name: nameSchema,
  userId: userIdSchema,
  description: descriptionSchema.default(''),
});
export type RfidCardUpdateRequest = z.input<typeof rfidCardUpdateSchema>;

/** POST .../rfid-cards/{cardId}/pair: the unit whose reader (by its id) is to accept the card. */
export const rfidPairRequestSchema = z.object({
  imei: z.string({ message: keys.RfidUnitNotFound }).regex(IMEI_PATTERN, keys.RfidUnitNotFound),
  readerId: idSchema(keys.RfidReaderIdRequired, keys.RfidReaderIdInvalid),
});
export type RfidPairRequest = z.input<typeof rfidPairRequestSchema>;

export const rfidCardParamSchema = z.object({
  cardId: z.string().transform(normalizeRfidId).pipe(z.string().regex(RFID_ID_PATTERN, keys.RfidCardNotFound)),
});

/**
 * Where a card's pairing stands: the state of its pairRfid command, `paired` once acknowledged.
 * `unanswered`: no answer within 120 s (it may still come); `failed` and `cancelled` (a newer
 * command to the unit replaced it) need a new pairing.
 */
export const rfidPairingStatuses = ['pending', 'unanswered', 'paired', 'failed', 'cancelled'] as const;
export type RfidPairingStatus = (typeof rfidPairingStatuses)[number];
export const pairingStatusOf = (status: (typeof commandStatuses)[number]): RfidPairingStatus =>
  status === 'acknowledged' ? 'paired' : status;

export const rfidReaderSchema = z.object({
  imei: z.string(),
  unitName: z.string().nullable(),
  readerId: z.string(),
  status: z.enum(rfidPairingStatuses),
  /** The pairRfid command; null until it was sent. */
  commandId: z.string().nullable(),
});

export const rfidCardSchema = z.object({
  cardId: z.string(),
  name: z.string(),
  /** The owner: whom a read of the card checks in as the driver. */
  userId: z.string().nullable(),
  /** The owner's name; null when there is none or they left the account. */
  userName: z.string().nullable(),
  description: z.string(),
  reader: rfidReaderSchema.nullable(),
  createdAt: z.string(),
});
export type RfidCard = z.infer<typeof rfidCardSchema>;

/** A read of a card the account does not have (kept so that an admin can add it in the app). */
export const rfidUnknownReadSchema = z.object({ cardId: z.string(), imei: z.string(), unitName: z.string().nullable(), lastReadAt: z.string(), reads: z.number().int() });
export type RfidUnknownRead = z.infer<typeof rfidUnknownReadSchema>;

export const rfidUserSchema = z.object({ id: z.string(), name: z.string() });

export const rfidCardListSchema = z.object({
  cards: z.array(rfidCardSchema),
  /** The account's users, for choosing a card's owner. */
  users: z.array(rfidUserSchema),
  unknownReads: z.array(rfidUnknownReadSchema),
});
export type RfidCardList = z.infer<typeof rfidCardListSchema>;

export const rfidCardCreatedSchema = z.object({ cardId: z.string() });
