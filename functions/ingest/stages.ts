/**
 * The stages every accepted position goes through after filtering (transitions.ts), in order, and
 * the senders of the effects they decide on. Each gets its previous state from the unit item and
 * a transition that is stored once before any of its effects is sent: trip detection
 * (functions/trips/stage.ts) and the event engine (functions/events/stage.ts: geofences,
 * overspeed, battery, power, inputs, theft mode) and the service intervals (functions/units/editor/service-stage.ts:
 * a `serviceDue` alarm through the event engine's effect), and RFID card reads (functions/rfid/read-stage.ts: the card's
 * owner checked in as the driver), and congestion tax passages (functions/congestion/passage-stage.ts).
 */
import { EVENT_EFFECT_SENDERS, eventStage } from '../events/stage';
import { TRIP_EFFECT_SENDERS, tripStage } from '../trips/stage';
import { serviceStage } from '../units/editor/service-stage';
import { RFID_EFFECT_SENDERS } from '../rfid/read-effect';
import { rfidStage } from '../rfid/read-stage';
import { sensorStage } from '../sensors/stage';
import { PASSAGE_EFFECT_SENDERS, passageStage } from '../congestion/passage-stage';
import type { EffectSender, IngestStage } from './transitions';

export const INGEST_STAGES: readonly IngestStage[] = [tripStage as IngestStage, eventStage as IngestStage, serviceStage as IngestStage, rfidStage as IngestStage, sensorStage as IngestStage, passageStage as IngestStage];

export const EFFECT_SENDERS: Readonly<Record<string, EffectSender>> = { ...TRIP_EFFECT_SENDERS, ...EVENT_EFFECT_SENDERS, ...RFID_EFFECT_SENDERS, ...PASSAGE_EFFECT_SENDERS };
