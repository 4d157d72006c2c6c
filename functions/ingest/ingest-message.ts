/**
 * Tracker messages through the ingest path, one batch of the ingest stream at a time (shared/
 * ingest-stream.ts; the same on AWS and embedded): decode, find the unit, filter, store the
 * positions, then per unit one transition (new state, stage states, effects: transitions.ts),
 * published live. Whatever a tracker sent, each message ends as positions, a command answer or a
 * dead letter with its reason; only infrastructure failures (DynamoDB unreachable, throttled
 * beyond the retries) throw, so that the stream retries the batch and, after that, its records
 * become dead letters too.
 *
 * The stream hands one unit's messages to one batch at a time, so the unit item read here,
 * strongly consistent, is its previous state: no per-instance cache that two instances could
 * disagree on. Retrying a batch, or any part of it, changes nothing:
 * - positions newer than the stored state are written without a condition (writing one again
 *   writes the same device record); positions at or before it, where redeliveries land, are put
 *   only if (imei, ts) is new, so a redelivered message is counted as duplicates;
 * - the transition is conditional on the item's revision, so it is applied once; a retried batch
 *   finds the state moved past its positions and decides nothing again;
 * - live goes out for the state this batch decides, as its positions are written: a redelivered
 *   batch whose state was stored publishes nothing; and only for an account a browser watches
 *   (functions/domain/account/live-watch.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import type { IotRuleEvent } from '../../shared/iot-rules';
import { isImeiShape } from '../../shared/validators/imei';
import { getEnv } from '../platform/env';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { getUnitItem } from '../domain/unit/reads';
import { isLiveWatched } from '../domain/account/live-watch';
import { liveAudienceOf, registeredAtOf, type UnitItem } from '../domain/unit/schema';
import { commitUnitTransition, commitUnitTransitions, type UnitTransition } from '../domain/unit/transitions';
import { toUnitState } from '../tracking/stored-shape';
import { createLimiter, forEachLimit } from './batch-write';
import { recordCommandAnswer } from './command-answers';
import { recordDeadLetters, type DeadLetter } from './dead-letters';
import { decodeMessage } from './decode';
import { DEFAULT_FILTER, type FilterReason } from './filter';
import { planUnit, type Planned, type UnitMessage } from './pipeline';
import { lookupUnits, positionItem, putPositionIfNew, putPositions, timesInChunks, type PositionRecordItem, type UnitLookup } from './repository';
import { EFFECT_SENDERS, INGEST_STAGES } from './stages';
import { deliverEffects, runStages, type EffectSender, type IngestPorts, type IngestStage } from './transitions';
import type { DeadLetterReason } from './types';

const DAY_MS = 86_400_000;
/**
 * How the units' transitions of a batch travel, per runtime (docs/decisions/0003, "Transitions in
 * DynamoDB Local"). On AWS, up to 25 conditional updates per BatchExecuteStatement request, which
 * DynamoDB bills as the same writes and Lambda waits for once. Embedded, an UpdateItem each:
 * DynamoDB Local runs a statement batch as a transaction, and in `npm run bench:ingest` the same
 * updates sent alone took about half its CPU per position and kept up with 2,000 buffered positions/s,
 * where the batches held each lane for about a second. `inFlight` requests at once, over all
 * batches of this process (a request, or a unit's retry after it lost its condition). DynamoDB
 * Local runs every statement on one SQLite thread, on the same two cores as the broker and the
 * handlers: a few in flight keep that thread busy without starving the positions' writes.
 */
export const TRANSITION_WRITES = { aws: { perRequest: 25, inFlight: 16 }, embedded: { perRequest: 1, inFlight: 8 } } as const;
let limiter: (<T>(work: () => Promise<T>) => Promise<T>) | undefined;
const limited = <T>(work: () => Promise<T>) => (limiter ??= createLimiter(TRANSITION_WRITES[getEnv().RUNTIME].inFlight))(work);
/**
 * Reads and recomputations of a unit whose transition lost to another write (a re-registration, a
 * concurrent retry). Each round of racing writers has one winner, so the last of n racers may lose
 * n - 1 times: 20 covers a dozen at once, and the waits below (at most 250 ms each) keep that
 * within seconds.
 */
const TRANSITION_TRIES = 20;
/** Before rereading a unit whose transition lost: a random wait that grows, so racing writers spread out. */
const afterLoss = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(10 * 2 ** attempt, 250)));
/** Single writes (lookups, conditional puts, state updates) in flight per call. */
const WRITE_CONCURRENCY = 32;
/** Beyond this many bad records in one batch, the batch is dead-lettered once, as a whole. */
const MAX_RECORD_LETTERS = 10;

export interface IngestResult {
  outcome: 'positions' | 'commandAnswer' | 'deadLetter';
  /** Whole-message dead letter reason. */
  reason?: DeadLetterReason;
  /**
   * Positions this call wrote. A record newer than the unit's known state that an interrupted
   * earlier delivery already wrote is written again, unchanged but for its receive time when the
   * tracker sent it again, and counted here.
   */
  stored: number;
  /** Positions not written: already stored (a redelivery), or a device time repeated in the call. */
  duplicates: number;
  filtered: Partial<Record<FilterReason, number>>;
  rejected: number;
  /** This message carried the unit's new latest state, now stored. */
  stateAdvanced: boolean;
  /** That state went out on the live channel. */
  published: boolean;
}

const empty = (outcome: IngestResult['outcome'], reason?: DeadLetterReason): IngestResult => ({
  outcome,
  ...(reason ? { reason } : {}),
  stored: 0,
  duplicates: 0,
  filtered: {},
  rejected: 0,
  stateAdvanced: false,
  published: false,
});

type Registered = Extract<UnitLookup, { status: 'registered' }>;

interface Write {
  item: PositionRecordItem;
  result: IngestResult;
}

/** The positions of each message, in the order of the writes. */
function byMessage(writes: readonly Write[]): PositionRecordItem[][] {
  const messages = new Map<IngestResult, PositionRecordItem[]>();
  for (const { item, result } of writes) {
    const list = messages.get(result);
    if (list) list.push(item);
    else messages.set(result, [item]);
  }
  return [...messages.values()];
}

/** Per unit, the times of its late positions that a chunk of fresh positions already holds (timesInChunks): duplicates. */
async function lateInChunks(writes: readonly Write[]): Promise<Map<string, Set<number>>> {
  const times = new Map<string, number[]>();
  for (const { item } of writes) {
    const list = times.get(item.imei);
    if (list) list.push(item.ts);
    else times.set(item.imei, [item.ts]);
  }
  const found = new Map<string, Set<number>>();
  await forEachLimit([...times], WRITE_CONCURRENCY, async ([imei, list]) => {
    found.set(imei, await timesInChunks(imei, list));
  });
  return found;
}

/** The pipeline's parts that tests and benchmarks may replace. */
export interface IngestOptions {
  stages?: readonly IngestStage[];
  senders?: Readonly<Record<string, EffectSender>>;
}

function receivedAtOf(event: IotRuleEvent, ports: Pick<Ports, 'clock'>): number {
  // It is stored with every position: one DynamoDB could not store would fail the whole batch.
  return Number.isSafeInteger(event.receivedAt) && event.receivedAt > 0 ? event.receivedAt : ports.clock.now().getTime();
}

export async function ingestMessages(events: readonly IotRuleEvent[], ports: IngestPorts, options: IngestOptions = {}): Promise<IngestResult[]> {
  const stages = options.stages ?? INGEST_STAGES;
  const senders = options.senders ?? EFFECT_SENDERS;
  const letters: DeadLetter[] = [];
  const answers: Array<{ imei: string; text: string; receivedAt: number }> = [];
  const results: IngestResult[] = [];
  const byUnit = new Map<string, Array<UnitMessage<IngestResult>>>();

  const decoded = events.map((event) => {
    const payload = Buffer.from(event.payload ?? '', 'base64');
    return { event, payload, receivedAt: receivedAtOf(event, ports), decoded: decodeMessage(payload) };
  });

  const imeis = [...new Set(decoded.filter((d) => d.decoded.kind !== 'invalid' && isImeiShape(d.event.imei)).map((d) => d.event.imei))];
  const units = await lookupUnits(imeis, ports.clock.now().getTime());

  for (const { event, payload, receivedAt, decoded: message } of decoded) {
    const { topic, imei } = event;
    const deadLetter = (reason: DeadLetterReason, detail: string | undefined, body = payload, recordIndex?: number) => {
      // Not the detail: a JSON parser's message quotes the payload, and positions are personal data.
      logger.warn('tracker message dead-lettered', { reason, topic, imei, recordIndex });
      letters.push({ reason, ...(detail ? { detail } : {}), topic, imei, payload: body, receivedAt, ...(recordIndex !== undefined ? { recordIndex } : {}) });
    };

    if (message.kind === 'invalid') {
      deadLetter(message.reason, message.detail);
      results.push(empty('deadLetter', message.reason));
      continue;
    }
    const unit: UnitLookup = units.get(imei) ?? { status: 'UnknownUnit' };
    if (unit.status !== 'registered') {
      deadLetter(unit.status, undefined);
      results.push(empty('deadLetter', unit.status));
      continue;
    }
    if (message.kind === 'commandAnswer') {
      answers.push({ imei, text: message.text, receivedAt });
      results.push(empty('commandAnswer'));
      continue;
    }

    const { positions, rejected } = message;
    const total = positions.length + rejected.length;
    if (total === 1 || rejected.length > MAX_RECORD_LETTERS) {
      // A lone record keeps the bytes as sent; so does a batch of mostly garbage, in one letter.
      const [first] = rejected;
      if (first) deadLetter(first.reason, total === 1 ? first.detail : `${rejected.length} of ${total} records rejected; [${first.index}] ${first.detail}`);
    } else {
      for (const r of rejected) deadLetter(r.reason, r.detail, Buffer.from(JSON.stringify(r.raw) ?? ''), r.index);
    }
    const result = { ...empty('positions'), rejected: rejected.length };
    results.push(result);
    const list = byUnit.get(imei) ?? [];
    list.push({ result, receivedAt, positions });
    byUnit.set(imei, list);
  }

  const batch: Write[] = [];
  const ifNew: Write[] = [];
  const planned: Array<{ lookup: Registered; messages: Array<UnitMessage<IngestResult>>; fresh: boolean }> = [];
  /** The new state of each unit with fresh positions, for the live channel. */
  const live: Array<{ unit: UnitItem; state: NonNullable<UnitItem['state']>; from: IngestResult | undefined }> = [];
  /**
   * Per unit, the times of positions the stages have not seen: late ones stored now, or stored late
   * by an attempt that may have failed before its transition; and the fresh ones this call writes,
   * which are late by the time the transition is recomputed after losing to another write of the
   * unit (the demo history's stream beside the live one).
   */
  const unseenLate = new Map<string, Set<number>>();
  for (const [imei, messages] of byUnit) {
    const lookup = units.get(imei) as Registered;
    const plan = planUnit(lookup.unit.state, limitsOf(lookup), messages, lookup.registeredAt);
    const write = ({ p, receivedAt, result }: Planned<IngestResult>, late = false) => ({ item: positionItem(imei, p, receivedAt, lookup.retentionDays, late), result });
    batch.push(...plan.fresh.map((f) => write(f)));
    if (plan.fresh.length && stages.length) unseenLate.set(imei, new Set(plan.fresh.map((f) => f.p.ts)));
    ifNew.push(...plan.late.map((f) => write(f, true)));
    planned.push({ lookup, messages, fresh: plan.state !== undefined });
    if (plan.state) live.push({ unit: lookup.unit, state: plan.state, from: plan.stateFrom });
    for (const m of messages) if (Object.keys(m.result.filtered).length) logger.debug('tracker positions filtered', { imei, filtered: m.result.filtered });
  }

  // Everything but the transitions at once; a state never points at a position that is not stored.
  // Live goes out as the positions are written: the map shows a position as soon as it is decided,
  // not after the slowest write of the batch. Should the writes fail, the batch is retried and
  // live shows the same state again once more; a position that ends as a dead letter was shown
  // once (live is best effort; the map reloads the stored state when it reconnects).
  const settled = await Promise.allSettled([
    forEachLimit(live, WRITE_CONCURRENCY, ({ unit, state, from }) => publishState(unit, state, from, ports)),
    recordDeadLetters(letters),
    putPositions(byMessage(batch)).then(() => {
      for (const w of batch) w.result.stored++;
    }),
    lateInChunks(ifNew).then((inChunks) => forEachLimit(ifNew, WRITE_CONCURRENCY, async (w) => {
      const outcome = inChunks.get(w.item.imei)?.has(w.item.ts) ? 'duplicate' : await putPositionIfNew(w.item);
      if (outcome === 'new') w.result.stored++;
      else w.result.duplicates++;
      if (outcome !== 'duplicate' && stages.length) {
        const imei = w.item['imei'] as string;
        const times = unseenLate.get(imei) ?? new Set<number>();
        times.add(w.item['ts'] as number);
        unseenLate.set(imei, times);
      }
    })),
    forEachLimit(answers, WRITE_CONCURRENCY, async (a) => {
      await recordCommandAnswer(a.imei, { text: a.text, receivedAt: a.receivedAt }, ports.live);
      logger.info('tracker command answer recorded', { imei: a.imei });
    }),
  ]);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;

  // A unit with newer positions, or with late ones the stages have not seen (trip detection re-evaluates their window).
  const changed = planned.filter(({ lookup, fresh }) => fresh || unseenLate.has(lookup.unit.imei));
  const context = { stages, senders, ports };
  // Every unit's transition decided from the item as read and written together (TRANSITION_WRITES);
  // one that lost to another write is decided again alone, from what is stored.
  const decided = changed.flatMap(({ lookup, messages }) => {
    const unseen = unseenLate.get(lookup.unit.imei) ?? new Set<number>();
    const decision = decide(lookup.unit, lookup, messages, unseen, stages);
    return decision ? [{ lookup, messages, unseen, decision }] : [];
  });
  const written = await commitUnitTransitions(
    decided.map(({ decision }) => ({ from: decision.current, next: decision.next })),
    limited,
    TRANSITION_WRITES[getEnv().RUNTIME].perRequest,
  );
  await forEachLimit(
    decided.map((d, i) => ({ ...d, written: written[i] === true })),
    WRITE_CONCURRENCY,
    ({ lookup, messages, unseen, decision, written: won }) => (won ? applied(decision, context) : retryTransition(lookup, messages, unseen, context)),
  );
  return results;
}

function limitsOf(lookup: Registered) {
  return { ...DEFAULT_FILTER, maxAgeMs: lookup.retentionDays * DAY_MS };
}

interface TransitionContext {
  stages: readonly IngestStage[];
  senders: Readonly<Record<string, EffectSender>>;
  ports: IngestPorts;
}

/** A unit's transition for the messages of this batch, computed from `current`, the item as read. */
interface Decision {
  current: UnitItem;
  next: UnitTransition;
  /** The message whose record made the new state. */
  from: IngestResult | undefined;
}

/** The transition of one unit for the messages of this batch, from the item as read; undefined when there is nothing to write. */
function decide(
  unit: UnitItem,
  lookup: Registered,
  messages: Array<UnitMessage<IngestResult>>,
  unseenLate: ReadonlySet<number>,
  stages: readonly IngestStage[],
): Decision | undefined {
  // Screening again is pure: the counts of the first screening are kept.
  const tallies = messages.map((m) => ({ ...m, result: { duplicates: 0, filtered: {} } }));
  const registeredAt = registeredAtOf(unit);
  const plan = planUnit(unit.state, limitsOf(lookup), tallies, registeredAt);
  const byTime = (list: typeof plan.fresh) => list.sort((a, b) => a.p.ts - b.p.ts).map((f) => f.p);
  const late = byTime(plan.late.filter(({ p }) => p.ts >= registeredAt && unseenLate.has(p.ts)));
  const after = plan.state ?? unit.state;
  if (!after || (!plan.state && !late.length)) return undefined;
  const from = messages[tallies.findIndex((m) => m.result === plan.stateFrom)]?.result;
  const newest = Math.max(...messages.map((m) => m.receivedAt));
  const next = runStages(stages, unit, after, byTime(plan.fresh), late, plan.state?.lastSeen ?? newest);
  // Late positions no stage took any notice of: nothing to write.
  if (!plan.state && isDeepStrictEqual(next.stages, unit.stages ?? {}) && isDeepStrictEqual(next.effects, unit.effects ?? {})) return undefined;
  return { current: unit, next, from };
}

/** After a decision was stored: its message advanced the state, and its effects are sent. */
async function applied({ current, next, from }: Decision, context: TransitionContext): Promise<void> {
  if (from) from.stateAdvanced = true;
  const stored: UnitItem = { ...current, state: next.state, stages: next.stages, effects: next.effects, rev: (current.rev ?? 0) + 1 };
  if (Object.keys(next.effects).length) await deliverEffects(stored, next.effects, context.senders, context.ports);
}

/**
 * A unit whose transition lost its condition (a concurrent retry, a re-registration): read again,
 * decided again and written alone, until it is written or there is nothing left to do.
 */
async function retryTransition(
  lookup: Registered,
  messages: Array<UnitMessage<IngestResult>>,
  unseenLate: ReadonlySet<number>,
  context: TransitionContext,
): Promise<void> {
  // The first of the tries was the batch's write.
  for (let attempt = 0; attempt < TRANSITION_TRIES - 1; attempt++) {
    await afterLoss(attempt);
    const unit = await getUnitItem(lookup.unit.imei, { consistent: true });
    if (!unit || unit.accountId !== lookup.unit.accountId) return;
    const decision = decide(unit, lookup, messages, unseenLate, context.stages);
    if (!decision) return;
    if (await limited(() => commitUnitTransition(decision.current, decision.next))) return applied(decision, context);
  }
  throw new Error(`unit ${lookup.unit.imei}: transition lost ${TRANSITION_TRIES} times in a row`);
}

async function publishState(unit: UnitItem, state: NonNullable<UnitItem['state']>, from: IngestResult | undefined, ports: Pick<Ports, 'live' | 'clock'>): Promise<void> {
  // In the API's shape (ISO times, null for unreported), as GET /realtime/units answers.
  try {
    // Only while a browser watches the account: on AWS each publish is an IoT Core message
    // (docs/decisions/0051-live-only-while-watched.md). The map loads the stored state when it opens.
    if (!(await isLiveWatched(unit.accountId, ports.clock.now().getTime()))) return;
    await ports.live.publish(liveAudienceOf(unit), { type: 'position', imei: unit.imei, ...toUnitState(state) });
    if (from) from.published = true;
  } catch (error) {
    // Live is best effort (QoS 0 by design); the map reloads the stored state when it reconnects.
    logger.warn('live publish failed', { imei: unit.imei, error: error instanceof Error ? error.message : String(error) });
  }
}

export async function ingestMessage(event: IotRuleEvent, ports: IngestPorts, options: IngestOptions = {}): Promise<IngestResult> {
  const [result] = await ingestMessages([event], ports, options);
  return result as IngestResult;
}
