/**
 * Tracker messages through the ingest path, one or many at a time: decode, find the unit, filter,
 * store the positions, advance each unit's latest state and publish it live. Whatever a tracker
 * sent, each message ends as positions, a command answer or a dead letter with its reason; only
 * infrastructure failures (DynamoDB unreachable, throttled beyond the retries) throw, so that the
 * whole call is retried (Lambda, the rule bridge) and, after that, the dead-letter queue keeps it.
 *
 * A call with many messages (the rule bridge's batch) writes across them: the positions of all
 * in BatchWriteItem requests, then one state update and one live message per unit, for its newest
 * accepted record. Retrying a call, or any part of it, changes nothing:
 * - positions newer than the unit's known state are new as a rule; they are written without a
 *   condition, and writing one again writes the same device record, with the same receive time
 *   when the same event is retried (Lambda and the bridge retry with the very event);
 * - positions at or before the known state are where redeliveries and late messages land; each is
 *   put only if (imei, ts) is new, so a redelivered message is counted as duplicates and writes
 *   nothing;
 * - a unit's newest accepted record makes its state; the live message goes out when that state
 *   is newer than the one this instance knows (repository.ts claimState), and the stored state
 *   follows with an update conditional on a newer device time, merged per unit while one is in
 *   flight (state-writer.ts). A call returns only when its states are stored or refused, and a
 *   refused one (another instance stored a newer state) makes this instance read the unit again.
 *   Instances that race for a unit may both publish; the browser keeps the newest device time.
 */
import type { IotRuleEvent } from '../../shared/iot-rules';
import { getEnv } from '../platform/env';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { toUnitState } from '../tracking/stored-shape';
import { forEachLimit } from './batch-write';
import { recordCommandAnswer } from './command-answers';
import { recordDeadLetters, type DeadLetter } from './dead-letters';
import { decodeMessage } from './decode';
import { DEFAULT_FILTER, type FilterReason } from './filter';
import { planUnit, type Planned, type UnitMessage } from './pipeline';
import { advanceState, claimState, forgetUnit, lookupUnit, positionItem, putPositionIfNew, putPositions, type UnitLookup } from './repository';
import { STATE_WRITE_CONCURRENCY, createStateWriter, type StateWriter } from './state-writer';
import type { DeadLetterReason, UnitState } from './types';

const DAY_MS = 86_400_000;
let writer: StateWriter | undefined;
const stateWriter = () => (writer ??= createStateWriter(advanceState, STATE_WRITE_CONCURRENCY[getEnv().RUNTIME]));
/** Single writes (lookups, conditional puts, state updates) in flight per call. */
const WRITE_CONCURRENCY = 32;
const IMEI = /^\d{15}$/;
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
  /** This message carried the unit's new latest state. */
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
  item: Record<string, unknown>;
  result: IngestResult;
}

interface StateChange {
  imei: string;
  unit: Registered;
  state: UnitState;
  result: IngestResult;
}

function receivedAtOf(event: IotRuleEvent, ports: Pick<Ports, 'clock'>): number {
  // It is stored with every position: one DynamoDB could not store would fail the whole batch.
  return Number.isSafeInteger(event.receivedAt) && event.receivedAt > 0 ? event.receivedAt : ports.clock.now().getTime();
}

export async function ingestMessages(events: readonly IotRuleEvent[], ports: Pick<Ports, 'live' | 'clock'>): Promise<IngestResult[]> {
  const letters: DeadLetter[] = [];
  const answers: Array<{ imei: string; text: string; receivedAt: number }> = [];
  const results: IngestResult[] = [];
  const byUnit = new Map<string, Array<UnitMessage<IngestResult>>>();

  const decoded = events.map((event) => {
    const payload = Buffer.from(event.payload ?? '', 'base64');
    return { event, payload, receivedAt: receivedAtOf(event, ports), decoded: decodeMessage(payload) };
  });

  const imeis = [...new Set(decoded.filter((d) => d.decoded.kind !== 'invalid' && IMEI.test(d.event.imei)).map((d) => d.event.imei))];
  const units = new Map<string, UnitLookup>();
  await forEachLimit(imeis, WRITE_CONCURRENCY, async (imei) => void units.set(imei, await lookupUnit(imei)));

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
  const changes: StateChange[] = [];
  for (const [imei, messages] of byUnit) {
    const unit = units.get(imei) as Registered;
    const plan = planUnit(unit.state, { ...DEFAULT_FILTER, maxAgeMs: unit.retentionDays * DAY_MS }, messages, unit.registeredAt);
    const write = ({ p, receivedAt, result }: Planned<IngestResult>) => ({ item: positionItem(imei, p, receivedAt, unit.retentionDays), result });
    batch.push(...plan.fresh.map(write));
    ifNew.push(...plan.late.map(write));
    if (plan.state && plan.stateFrom) changes.push({ imei, unit, state: plan.state, result: plan.stateFrom });
    for (const m of messages) if (Object.keys(m.result.filtered).length) logger.debug('tracker positions filtered', { imei, filtered: m.result.filtered });
  }

  // Everything but the states at once; the states wait for their positions to be stored.
  const settled = await Promise.allSettled([
    recordDeadLetters(letters),
    putPositions(batch.map((w) => w.item)).then(() => {
      for (const w of batch) w.result.stored++;
    }),
    forEachLimit(ifNew, WRITE_CONCURRENCY, async (w) => {
      if (await putPositionIfNew(w.item)) w.result.stored++;
      else w.result.duplicates++;
    }),
    forEachLimit(answers, WRITE_CONCURRENCY, async (a) => {
      await recordCommandAnswer(a.imei, { text: a.text, receivedAt: a.receivedAt }, ports.live);
      logger.info('tracker command answer recorded', { imei: a.imei });
    }),
  ]);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;

  // Live first: a browser sees a position as soon as it is stored, and the state it makes as soon
  // as this instance knows it is the unit's newest; the durable state follows through the state
  // writer, which merges a unit's states while one is on its way to the store.
  const claimed = changes.filter(({ imei, unit, state }) => claimState(imei, unit, state));
  const durable = Promise.allSettled(
    claimed.map(async ({ imei, state, result }) => {
      try {
        result.stateAdvanced = await stateWriter().write(imei, state);
      } catch (error) {
        forgetUnit(imei);
        throw error;
      }
      // Another instance stored a newer state: this one forgets what it knew and reads it again.
      if (!result.stateAdvanced) forgetUnit(imei);
    }),
  );
  await forEachLimit(claimed, WRITE_CONCURRENCY, async ({ imei, unit, state, result }) => {
    // Published once per state this instance moved to: a redelivered or late message sends nothing.
    // In the API's shape (ISO times, null for unreported), as GET /realtime/units answers.
    try {
      await ports.live.publish(unit.accountId, imei, { type: 'position', imei, ...toUnitState(state) });
      result.published = true;
    } catch (error) {
      // Live is best effort (QoS 0 by design); the map reloads the stored state when it reconnects.
      logger.warn('live publish failed', { imei, error: error instanceof Error ? error.message : String(error) });
    }
  });
  const unwritten = (await durable).find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (unwritten) throw unwritten.reason;
  return results;
}

export async function ingestMessage(event: IotRuleEvent, ports: Pick<Ports, 'live' | 'clock'>): Promise<IngestResult> {
  const [result] = await ingestMessages([event], ports);
  return result as IngestResult;
}
