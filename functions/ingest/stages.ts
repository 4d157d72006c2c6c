/**
 * The stages every accepted position goes through after filtering (transitions.ts), in order, and
 * the senders of the effects they decide on. Each gets its previous state from the unit item and
 * a transition that is stored once before any of its effects is sent. Trip detection
 * (functions/trips/stage.ts) is here; the event engine (geofences, alarms) comes next to it.
 */
import { TRIP_EFFECT_SENDERS, tripStage } from '../trips/stage';
import type { EffectSender, IngestStage } from './transitions';

export const INGEST_STAGES: readonly IngestStage[] = [tripStage as IngestStage];

export const EFFECT_SENDERS: Readonly<Record<string, EffectSender>> = { ...TRIP_EFFECT_SENDERS };
