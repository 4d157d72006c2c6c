/**
 * RFID reads as an ingest stage (functions/ingest/transitions.ts): a record carrying `rfid` (the
 * native payload's card id, Teltonika IO 207 or the IO 78 iButton) becomes an `rfidRead` effect,
 * which checks the card's owner in as the unit's driver (read-effect.ts). The transition holding
 * the effect is stored once and the effect is claimed before it is sent, so a redelivered or
 * retried batch checks nobody in twice; the effect id is derived from the read (unit time and
 * card), so a recomputed transition decides the same one.
 *
 * A card held to the reader is reported in many records: only a new card, or the same card after
 * a pause of REREAD_GAP_MS, is a new read. A card read within READ_AT_START_MS of the ignition
 * going on is the driver of that trip from its start (the trip's driver is the check-in in force at
 * its start); a read later in a drive checks the driver in from the read.
 *
 * Cost on the hot path: one pass over the batch's positions comparing two fields; the state
 * changes only when the ignition turns or a card is read.
 */
import { z } from 'zod';
import { normalizeRfidId } from '../../shared/schemas/rfid';
import type { Effect, IngestStage } from '../ingest/transitions';

export const RFID_STAGE = 'rfid';
export const RFID_READ = 'rfidRead';
export const REREAD_GAP_MS = 10 * 60_000;
export const READ_AT_START_MS = 10 * 60_000;

const stateSchema = z.object({
  /** Device time the ignition went on (absent while it is off or unknown). */
  on: z.number().optional(),
  /** The last card read and when. */
  card: z.string().optional(),
  at: z.number().optional(),
});
export type RfidStageState = z.infer<typeof stateSchema>;

export const rfidReadPayloadSchema = z.object({ card: z.string().min(1), ts: z.number(), from: z.number() });
export type RfidReadPayload = z.infer<typeof rfidReadPayloadSchema>;

export const rfidStage: IngestStage<RfidStageState> = {
  name: RFID_STAGE,
  parse(stored) {
    const parsed = stateSchema.safeParse(stored);
    return parsed.success ? parsed.data : undefined;
  },
  run({ previous, positions }) {
    let state = previous;
    let effects: Effect[] | undefined;
    for (const p of positions) {
      if (p.ignition === true) {
        if (state?.on === undefined) state = { ...state, on: p.ts };
      } else if (p.ignition === false && state?.on !== undefined) {
        state = { ...state, on: undefined };
        delete state.on;
      }
      if (p.rfid === undefined) continue;
      const card = normalizeRfidId(p.rfid);
      if (!card) continue;
      const again = state?.card === card && state.at !== undefined && p.ts - state.at <= REREAD_GAP_MS;
      state = { ...state, card, at: p.ts };
      if (again) continue;
      const on = state.on;
      const from = on !== undefined && on <= p.ts && p.ts - on <= READ_AT_START_MS ? on : p.ts;
      const payload: RfidReadPayload = { card, ts: p.ts, from };
      (effects ??= []).push({ id: `${RFID_READ}:${p.ts}:${card}`, kind: RFID_READ, payload });
    }
    return effects ? { state, effects } : { state };
  },
};
