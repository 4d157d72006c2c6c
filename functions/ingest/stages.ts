/**
 * The stages every accepted position goes through after filtering (transitions.ts), in order, and
 * the senders of the effects they decide on. Each gets its previous state from the unit item and
 * a transition that is stored once before any of its effects is sent: trip detection
 * (functions/trips/stage.ts) and the event engine (functions/events/stage.ts: geofences,
 * overspeed, battery, power, inputs, theft mode).
 */
import { EVENT_EFFECT_SENDERS, eventStage } from '../events/stage';
import { TRIP_EFFECT_SENDERS, tripStage } from '../trips/stage';
import type { EffectSender, IngestStage } from './transitions';

export const INGEST_STAGES: readonly IngestStage[] = [tripStage as IngestStage, eventStage as IngestStage];

export const EFFECT_SENDERS: Readonly<Record<string, EffectSender>> = { ...TRIP_EFFECT_SENDERS, ...EVENT_EFFECT_SENDERS };
