/**
 * The stages after decoding and filtering, and how their results become durable exactly once.
 *
 * For each unit of a batch, ingest reads the unit item strongly consistent (the stream gives a
 * unit's messages to one batch at a time, so that is the unit's previous state), works out the
 * new state from the accepted positions (pipeline.ts), and runs every stage of `INGEST_STAGES`
 * over the same positions: each stage reads its own previous state from the item's `stages` and
 * answers its next one and the side effects it decided on (an alarm to send). All of it is then
 * written as one transition, conditional on the item's revision (functions/domain/unit/
 * transitions.ts commitUnitTransition): a retried batch finds the revision moved and decides nothing twice.
 * Only after the transition is stored is an effect sent, and each only after a conditional claim,
 * so an effect is sent once however the batch is retried.
 *
 * Trip detection and the event engine plug in as stages (and their effects' senders) here.
 */
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import type { PendingEffect, UnitItem } from '../domain/unit/schema';
import { claimUnitEffect, removeUnitEffect, type UnitTransition } from '../domain/unit/transitions';
import type { Position, UnitState } from './types';

/** A side effect a stage decided on. The id is derived from what caused it, so a recomputed transition decides the same effect. */
export interface Effect {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
}

export interface StageInput<S> {
  unit: UnitItem;
  /** The stage's own state as stored with the unit's previous transition. */
  previous: S | undefined;
  /** The unit's state before and after the positions. */
  before: UnitState | undefined;
  after: UnitState;
  /** The accepted positions newer than `before`, oldest first. */
  positions: readonly Position[];
  /**
   * Accepted positions of this batch at or before `before` (late: a tracker's buffer sent after
   * newer ones) that the stages have not seen, from the unit's current registration on, oldest
   * first: stored by this batch, or stored late by an attempt that may have failed before its
   * transition (so they may have been seen after all: that work must be idempotent). A stage
   * whose past decisions they may change (trip detection) re-evaluates the window they fall in.
   */
  late: readonly Position[];
  receivedAt: number;
}

export interface IngestStage<S = unknown> {
  readonly name: string;
  /** The stage's stored state, checked (it comes from the item as `unknown`). */
  parse(stored: unknown): S | undefined;
  run(input: StageInput<S>): { state: S | undefined; effects?: readonly Effect[] };
  /** The state as the unit item keeps it, when not as `run` returns it (parse reads it back). */
  store?(state: S): unknown;
}

/** The ports ingest and its effects use: live updates, the clock, addresses for trips, the alert queue, and commands (theft mode). */
export type IngestPorts = Pick<Ports, 'live' | 'clock' | 'geocoder' | 'alerts' | 'queues' | 'devices'>;

/** Sends one kind of effect (an SMS, an e-mail, a push, a trip to store). Throws when it could not. */
export type EffectSender = (effect: PendingEffect & { id: string }, unit: UnitItem, ports: IngestPorts) => Promise<void>;

/**
 * An effect claimed for sending longer ago than this whose sender never confirmed it (the process
 * died mid-send) is dropped with an error in the log rather than sent again.
 */
export const ABANDONED_EFFECT_MS = 10 * 60_000;

/** The transition a batch makes for one unit: the new state, each stage's next state, and the effects still to send. */
export function runStages(
  stages: readonly IngestStage[],
  unit: UnitItem,
  after: UnitState,
  positions: readonly Position[],
  late: readonly Position[],
  receivedAt: number,
): UnitTransition {
  const storedStages: Record<string, unknown> = { ...(unit.stages ?? {}) };
  const effects: Record<string, PendingEffect> = { ...(unit.effects ?? {}) };
  for (const stage of stages) {
    const result = stage.run({ unit, previous: stage.parse(storedStages[stage.name]), before: unit.state, after, positions, late, receivedAt });
    if (result.state === undefined) delete storedStages[stage.name];
    else storedStages[stage.name] = stage.store ? stage.store(result.state) : result.state;
    for (const e of result.effects ?? []) {
      // Decided before (a recomputed transition): already pending or sent, never twice.
      if (!effects[e.id]) effects[e.id] = { kind: e.kind, status: 'pending', payload: e.payload, at: receivedAt };
    }
  }
  return { state: after, stages: storedStages, effects };
}

/**
 * Sends the stored transition's pending effects, each once: claimed first (a conditional write
 * only one caller wins), then sent, then removed. A failed send leaves it claimed: it is not sent
 * again (it may have gone out), and it is logged.
 */
export async function deliverEffects(
  unit: UnitItem,
  effects: Readonly<Record<string, PendingEffect>>,
  senders: Readonly<Record<string, EffectSender>>,
  ports: IngestPorts,
): Promise<number> {
  let sent = 0;
  const now = ports.clock.now().getTime();
  for (const [id, effect] of Object.entries(effects)) {
    if (effect.status === 'sending') {
      if (now - effect.at > ABANDONED_EFFECT_MS) {
        logger.error('effect abandoned after its claim; not sent again', { imei: unit.imei, effect: id, kind: effect.kind });
        await removeUnitEffect(unit.imei, id);
      }
      continue;
    }
    const send = senders[effect.kind];
    if (!send) {
      logger.error('no sender for effect; kept pending', { imei: unit.imei, effect: id, kind: effect.kind });
      continue;
    }
    if (!(await claimUnitEffect(unit.imei, id))) continue;
    try {
      await send({ ...effect, id }, unit, ports);
      sent++;
    } catch (error) {
      logger.error('effect send failed; not retried', { imei: unit.imei, effect: id, kind: effect.kind, error: error instanceof Error ? error.message : String(error) });
      continue;
    }
    await removeUnitEffect(unit.imei, id);
  }
  return sent;
}
