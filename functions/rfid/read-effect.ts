/**
 * Sends an `rfidRead` effect (read-stage.ts): the card's owner is checked in as the unit's driver
 * through the driver check-in service (functions/trips/check-in-service.ts, the same check-in as
 * the portal's and the app's), from the moment the stage decided. A card the account does not
 * have, or one without an owner, is noted on the RFID cards page (`read#<card>`) and checks
 * nobody in. The effect is claimed before it is sent (functions/ingest/transitions.ts), so this
 * runs once per read; a check-in at the same instant would replace itself anyway.
 */
import type { EffectSender } from '../ingest/transitions';
import { DomainError } from '../platform/errors';
import { logger } from '../platform/logger';
import { checkInDriver } from '../trips/check-in-service';
import { findCard, noteUnknownRead } from './rfid-repository';
import { RFID_READ, rfidReadPayloadSchema } from './read-stage';

export const sendRfidRead: EffectSender = async (effect, unit, ports) => {
  const parsed = rfidReadPayloadSchema.safeParse(effect.payload);
  if (!parsed.success) {
    logger.error('rfid read effect with an unreadable payload; dropped', { imei: unit.imei, effect: effect.id });
    return;
  }
  const { card, ts, from } = parsed.data;
  const item = await findCard(unit.accountId, card, false);
  if (!item?.userId) {
    await noteUnknownRead(unit.accountId, card, unit.imei, ts);
    logger.info('rfid read of a card the account does not have', { imei: unit.imei, card });
    return;
  }
  const now = ports.clock.now().getTime();
  try {
    await checkInDriver(
      { userId: item.userId, accountId: unit.accountId, unitImeis: undefined, isSupport: false },
      { imei: unit.imei, driverId: item.userId, from: new Date(from).toISOString() },
      'UTC',
      Math.max(now, ts),
      ports,
    );
  } catch (error) {
    // The owner left the account, or the unit changed hands: nobody to check in.
    if (!(error instanceof DomainError)) throw error;
    logger.warn('rfid read checked nobody in', { imei: unit.imei, card, reason: error.key });
  }
};

export const RFID_EFFECT_SENDERS = { [RFID_READ]: sendRfidRead } as const;
