/**
 * One tracker message through the ingest path: decode, find the unit, filter, store the positions,
 * advance the unit's latest state and publish it live. Whatever the tracker sent, the message ends
 * as positions, a command answer or a dead letter with its reason; only infrastructure failures
 * (DynamoDB unreachable, throttled) throw, so that Lambda retries and, after that, the dead-letter
 * queue keeps the message. Retrying is safe: every write is conditional (repository.ts).
 */
import type { IotRuleEvent } from '../../shared/iot-rules';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { toUnitState } from '../tracking/stored-shape';
import { recordCommandAnswer } from './command-answers';
import { recordDeadLetter } from './dead-letters';
import { decodeMessage } from './decode';
import { DEFAULT_FILTER, type FilterReason } from './filter';
import { screenPositions } from './pipeline';
import { advanceState, forgetUnit, lookupUnit, rememberState, storePosition } from './repository';
import { nextState } from './state';
import type { DeadLetterReason, Position } from './types';

const DAY_MS = 86_400_000;
/** Writes in flight per message: a buffered batch must not open hundreds of connections at once. */
const WRITE_CONCURRENCY = 16;
const IMEI = /^\d{15}$/;
/** Beyond this many bad records in one batch, the batch is dead-lettered once, as a whole. */
const MAX_RECORD_LETTERS = 10;

export interface IngestResult {
  outcome: 'positions' | 'commandAnswer' | 'deadLetter';
  /** Whole-message dead letter reason. */
  reason?: DeadLetterReason;
  stored: number;
  duplicates: number;
  filtered: Partial<Record<FilterReason, number>>;
  rejected: number;
  stateAdvanced: boolean;
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

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<boolean>): Promise<number> {
  let yes = 0;
  for (let i = 0; i < items.length; i += size) {
    const done = await Promise.all(items.slice(i, i + size).map(work));
    for (const d of done) if (d) yes++;
  }
  return yes;
}

export async function ingestMessage(event: IotRuleEvent, ports: Pick<Ports, 'live' | 'clock'>): Promise<IngestResult> {
  const receivedAt = Number.isFinite(event.receivedAt) && event.receivedAt > 0 ? event.receivedAt : ports.clock.now().getTime();
  const payload = Buffer.from(event.payload ?? '', 'base64');
  const { topic, imei } = event;

  const deadLetter = async (reason: DeadLetterReason, detail: string | undefined, body = payload, recordIndex?: number) => {
    // Not the detail: a JSON parser's message quotes the payload, and positions are personal data.
    logger.warn('tracker message dead-lettered', { reason, topic, imei, recordIndex });
    await recordDeadLetter({ reason, ...(detail ? { detail } : {}), topic, imei, payload: body, receivedAt, ...(recordIndex !== undefined ? { recordIndex } : {}) });
  };

  const decoded = decodeMessage(payload);
  if (decoded.kind === 'invalid') {
    await deadLetter(decoded.reason, decoded.detail);
    return empty('deadLetter', decoded.reason);
  }

  const unit = IMEI.test(imei) ? await lookupUnit(imei) : ({ status: 'UnknownUnit' } as const);
  if (unit.status !== 'registered') {
    await deadLetter(unit.status, undefined);
    return empty('deadLetter', unit.status);
  }

  if (decoded.kind === 'commandAnswer') {
    await recordCommandAnswer(imei, { text: decoded.text, receivedAt });
    logger.info('tracker command answer recorded', { topic, imei });
    return empty('commandAnswer');
  }

  const { positions, rejected } = decoded;
  const total = positions.length + rejected.length;
  if (total === 1 || rejected.length > MAX_RECORD_LETTERS) {
    // A lone record keeps the bytes as sent; so does a batch of mostly garbage, in one letter.
    const [first] = rejected;
    if (first) await deadLetter(first.reason, total === 1 ? first.detail : `${rejected.length} of ${total} records rejected; [${first.index}] ${first.detail}`);
  } else {
    await inBatches(rejected, WRITE_CONCURRENCY, async (r) => {
      await deadLetter(r.reason, r.detail, Buffer.from(JSON.stringify(r.raw) ?? ''), r.index);
      return true;
    });
  }

  const prev = unit.state;
  const screened = screenPositions(positions, prev, {
    now: receivedAt,
    futureMs: DEFAULT_FILTER.futureMs,
    maxAgeMs: unit.retentionDays * DAY_MS,
    maxSpeedKmh: DEFAULT_FILTER.maxSpeedKmh,
    jumpToleranceM: DEFAULT_FILTER.jumpToleranceM,
  });
  const stored = await inBatches(screened.accepted, WRITE_CONCURRENCY, (p: Position) => storePosition(imei, p, receivedAt, unit.retentionDays));

  const result: IngestResult = {
    ...empty('positions'),
    stored,
    duplicates: screened.accepted.length - stored + screened.repeated,
    filtered: screened.filtered,
    rejected: rejected.length,
  };
  if (Object.keys(screened.filtered).length) logger.debug('tracker positions filtered', { imei, filtered: screened.filtered });

  const newest = screened.newest;
  // Even when the newest position was stored before (a retry after a crash), the state may still
  // lag behind it; the condition decides, so trying again is harmless.
  if (newest && (!prev || newest.ts > prev.ts)) {
    const state = nextState(prev, newest, receivedAt);
    result.stateAdvanced = await advanceState(imei, state);
    if (result.stateAdvanced) {
      rememberState(imei, state);
      // Published once per state change: a redelivered or late message advances nothing and sends
      // nothing. In the API's shape (ISO times, null for unreported), as GET /realtime/units answers.
      try {
        await ports.live.publish(unit.accountId, imei, { type: 'position', imei, ...toUnitState(state) });
        result.published = true;
      } catch (error) {
        // Live is best effort (QoS 0 by design); the map reloads the stored state when it reconnects.
        logger.warn('live publish failed', { imei, error: error instanceof Error ? error.message : String(error) });
      }
    } else {
      forgetUnit(imei);
    }
  }
  return result;
}
