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
import { LATE_EPISODE_MARGIN_MS, lateEpisodeEvents, lateHarshEvents, runEngine, type EventEngineState, type RaisedEvent } from './engine';
import { raisedEventSchema, recordEvent } from './record-event';
import { isEcoEventType } from '../../shared/eco';
import { ecoEventRecorded } from '../trips/unit-days';
import { detectorPositions } from '../trips/detector-positions';
import { registeredAtOf } from '../domain/unit/schema';

export const EVENT_STAGE = 'events';
export const EVENT_RAISED = 'event';
export const THEFT_MODE_START = 'theftModeStart';
/** A late buffer's speeding and idling episodes, decided over the stored positions around it. */
export const LATE_EPISODES = 'lateEpisodes';
/** The most stored positions read for one late buffer's episodes. */
const LATE_EPISODE_MAX_POSITIONS = 5_000;

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
    // A late buffer's harsh events count where they happened (their ids are those a live run gives);
    // its episodes need the stored positions around it, read by an effect. Without a speed limit,
    // ignition or the device's idling flag a unit has no episodes: its late positions write nothing.
    const lateEffects = lateHarshEvents(unit, late).map(eventEffect);
    const [firstLate] = late;
    const lastLate = late[late.length - 1];
    const episodes = unit.overspeedKmh !== undefined || late.some((p) => p.ignition !== undefined || p.eco?.idling !== undefined);
    if (firstLate && lastLate && episodes) {
      lateEffects.push({ id: `${LATE_EPISODES}:${firstLate.ts}:${lastLate.ts}`, kind: LATE_EPISODES, payload: { fromTs: firstLate.ts, toTs: lastLate.ts } });
    }
    if (!positions.length) return { state: previous, effects: lateEffects };
    const result = runEngine(unit, previous, positions);
    const effects = [...lateEffects, ...result.events.map(eventEffect)];
    if (result.theftModeFrom) {
      effects.push({ id: `${THEFT_MODE_START}:${result.theftModeFrom.ts}`, kind: THEFT_MODE_START, payload: { ...result.theftModeFrom } });
    }
    return { state: result.state, effects };
  },
};

async function record(event: Parameters<typeof recordEvent>[1], unit: Parameters<EffectSender>[1], ports: Parameters<EffectSender>[2]): Promise<void> {
  await recordEvent(unit, event, ports);
  // Also when it was stored before: a send that died between the two is completed by its retry.
  if (isEcoEventType(event.type)) await ecoEventRecorded(ports, unit.accountId, unit.imei, event.ts);
}

const sendEvent: EffectSender = (effect, unit, ports) => record(raisedEventSchema.parse(effect.payload), unit, ports);

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

const lateWindowSchema = z.object({ fromTs: z.number(), toTs: z.number() });

/** Records the episodes of a late buffer (lateEpisodeEvents) as a live run would, each once. */
const sendLateEpisodes: EffectSender = async (effect, unit, ports) => {
  const { fromTs, toTs } = lateWindowSchema.parse(effect.payload);
  const from = Math.max(registeredAtOf(unit), fromTs - LATE_EPISODE_MARGIN_MS);
  const { positions } = await detectorPositions(unit.imei, from, toTs + LATE_EPISODE_MARGIN_MS, LATE_EPISODE_MAX_POSITIONS);
  for (const event of lateEpisodeEvents(unit, positions, fromTs, toTs)) await record(event, unit, ports);
};

export const EVENT_EFFECT_SENDERS: Readonly<Record<string, EffectSender>> = {
  [EVENT_RAISED]: sendEvent,
  [LATE_EPISODES]: sendLateEpisodes,
  [THEFT_MODE_START]: sendTheftMode,
};
