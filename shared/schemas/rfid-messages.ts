/**
 * Message keys of RFID cards and readers (spec sections 4, 6 and 8). The server answers with these
 * keys and the browser translates them (the `rfid` text module holds each of them in every language).
 */
export const rfidMessageKeys = {
  /** The account has no cards (spec section 8 'no cards found'): the list's empty state. */
  NoCardsFound: 'NoCardsFound',
  RfidCardNotFound: 'RfidCardNotFound',
  RfidCardIdRequired: 'RfidCardIdRequired',
  /** 1-32 letters, digits, '-' or '_' (a 16-hex-digit Teltonika id fits). */
  RfidCardIdInvalid: 'RfidCardIdInvalid',
  /** Another card of the account has this id (also when two adds race). */
  RfidCardIdTaken: 'RfidCardIdTaken',
  /** Spec section 5: card name and card owner required. */
  RfidCardNameRequired: 'RfidCardNameRequired',
  RfidCardNameTooLong: 'RfidCardNameTooLong',
  RfidCardOwnerRequired: 'RfidCardOwnerRequired',
  /** Not a user of the account, or (an ordinary user adding a card) anyone but themself. */
  RfidCardOwnerInvalid: 'RfidCardOwnerInvalid',
  RfidDescriptionTooLong: 'RfidDescriptionTooLong',
  RfidReaderIdRequired: 'RfidReaderIdRequired',
  RfidReaderIdInvalid: 'RfidReaderIdInvalid',
  /** The unit to pair with is not one of the account's. */
  RfidUnitNotFound: 'RfidUnitNotFound',
  /** The unit's tracker family has no RFID pair command (Teltonika units). */
  RfidPairNotSupported: 'RfidPairNotSupported',
  /** 409: the reader is paired with another unit (spec section 8). */
  RfidReaderAlreadyPaired: 'RfidReaderAlreadyPaired',
  /** 409: the card is not paired (unpair). */
  RfidCardNotPaired: 'RfidCardNotPaired',
  /** 409: another change of the same card or reader came first. */
  RfidCardChanged: 'RfidCardChanged',
} as const;

export type RfidMessageKey = (typeof rfidMessageKeys)[keyof typeof rfidMessageKeys];
