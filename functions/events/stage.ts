/**
 * The event engine as an ingest stage (functions/ingest/transitions.ts): its state rides on the
 * unit item next to trip detection's, each batch's positions advance it (engine.ts), and every
 * event it decides on becomes an effect. The transition holding the new state and the effects is
 * stored once, conditionally, before any effect is sent, and each effect is claimed before it is
 * sent: a redelivered, retried or racing batch finds the state moved past its positions and
 * raises nothing again, and an event is recorded, published and alarmed once.
 *
 * Effect ids are derived from what caused them (type, device time, zone), so a transition that
 * is recomputed after losing its condition decides the same effects.
 */
import { z } from 'zod';
import type { Effect, EffectSender, IngestStage } from '../ingest/transitions';
import { sendCommand } from '../units/command-service';
import { logger } from '../platform/logger';
import { lateHarshEvents, runEngine, type EventEngineState, type RaisedEvent } from './engine';
import { raisedEventSchema, recordEvent } from './record-event';
import { isEcoEventType } from '../../shared/eco';
import { ecoEventRecorded } from '../trips/unit-days';

export const EVENT_STAGE = 'events';
export const EVENT_RAISED = 'event';
export const THEFT_MODE_START = 'theftModeStart';

const flag = z.union([z.literal(0), z.literal(1)]);
const storedSchema = z.object({
  t: z.number(),
  zones: z.record(z.string(), flag).optional(),
  over: z.object({ since: z.number(), max: z.number(), raised: z.boolean(), lat: z.number().optional(), lon: z.number().optional() }).optional(),
  idle: z.object({ since: z.number(), lat: z.number(), lon: z.number(), device: z.boolean() }).optional(),
  lowBat: z.boolean().optional(),
  power: z.boolean().optional(),
  din: z.record(z.string(), z.boolean()).optional(),
  theftMoving: z.boolean().optional(),
});


/** The effect that records an event, publishes it live and, for an alarm, hands it to delivery. */
export function eventEffect(event: Omit<RaisedEvent, 'lat' | 'lon'> & { lat: number | null; lon: number | null }): Effect {
  return { id: `${EVENT_RAISED}:${event.type}:${event.ts}:${event.key}`, kind: EVENT_RAISED, payload: { ...event } };
}

export const eventStage: IngestStage<EventEngineState> = {
  name: EVENT_STAGE,
  parse(stored) {
    const parsed = storedSchema.safeParse(stored);
    return parsed.success ? (parsed.data as EventEngineState) : undefined;
  },
  run({ unit, previous, positions, late }) {
    // A late buffer's harsh events count where they happened (their ids are those a live run gives).
    const lateEffects = lateHarshEvents(unit, late).map(eventEffect);
    if (!positions.length) return { state: previous, effects: lateEffects };
    const result = runEngine(unit, previous, positions);
    const effects = [...lateEffects, ...result.events.map(eventEffect)];
    if (result.theftModeFrom) {
      effects.push({ id: `${THEFT_MODE_START}:${result.theftModeFrom.ts}`, kind: THEFT_MODE_START, payload: { ...result.theftModeFrom } });
    }
    return { state: result.state, effects };
  },
};

const sendEvent: EffectSender = async (effect, unit, ports) => {
  const event = raisedEventSchema.parse(effect.payload);
  await recordEvent(unit, event, ports);
  // Also when it was stored before: a send that died between the two is completed by its retry.
  if (isEcoEventType(event.type)) await ecoEventRecorded(ports, unit.accountId, unit.imei, event.ts);
};

/**
 * Leaving a theft-mode zone switches the unit to theft mode through the command service, as a
 * user's command would (pending until the tracker acknowledges; the unit's mode changes then).
 */
const sendTheftMode: EffectSender = async (effect, unit, ports) => {
  if (unit.operatingMode === 'theft') {
    logger.info('theft mode already on; not sent again', { imei: unit.imei, effect: effect.id });
    return;
  }
  await sendCommand(unit, { type: 'operatingMode', mode: 'theft' }, ports);
};

export const EVENT_EFFECT_SENDERS: Readonly<Record<string, EffectSender>> = {
  [EVENT_RAISED]: sendEvent,
  [THEFT_MODE_START]: sendTheftMode,
};
