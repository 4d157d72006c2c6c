/**
 * The stages every accepted position goes through after filtering (transitions.ts), in order, and
 * the senders of the effects they decide on. Trip detection (the trip log) and the event engine
 * (geofences, alarms) are added here; each gets its previous state from the unit item and a
 * transition that is stored once before any of its effects is sent.
 */
import type { EffectSender, IngestStage } from './transitions';

export const INGEST_STAGES: readonly IngestStage[] = [];

export const EFFECT_SENDERS: Readonly<Record<string, EffectSender>> = {};
