/**
 * Congestion tax passages as an ingest stage (functions/ingest/transitions.ts): each step from the
 * unit's last fix through a batch's new positions is tested against the control lines
 * (shared/congestion/passages.ts), and every passage becomes an effect that stores it in the
 * passages table (passage-repository.ts) once the transition holding it is written. The effect's
 * id is the station and the passage's time, and the put is conditional, so a redelivered batch or
 * a retried effect stores a passage once.
 *
 * The stage's state, on the units item (`stages.passages`), is the last fix and the last
 * Essingeleden crossing (while a pass may go on), so Essingeleden counts once per pass across
 * batches. Outside the two cities a step costs a few comparisons.
 *
 * Late positions (a tracker's buffer sent after newer ones) change the steps they fall between: a
 * `passagesRedetect` effect re-detects their window from the stored positions, from the fix before
 * the first to the fix after the last (never past the state the stage had already seen), and makes
 * the window's stored passages what it finds. Only near the cities (LATE_MARGIN_KM): elsewhere a
 * late buffer costs nothing more than before.
 */
import { z } from 'zod';
import { ESSINGELEDEN_PASS_MS, nearControlLines, passagesOfStep, type EssingeledenPass, type Fix } from '../../shared/congestion/passages';
import { registeredAtOf } from '../domain/unit/schema';
import type { Effect, EffectSender, IngestStage } from '../ingest/transitions';
import { readPositions } from '../ingest/position-query';
import { deletePassages, lastPassageBefore, passageSk, putPassage, unitPassages, type StoredPassage } from './passage-repository';

export const PASSAGE_STAGE = 'passages';
export const PASSAGE_FOUND = 'passage';
export const PASSAGES_REDETECT = 'passagesRedetect';
/** Late positions all further than this from both cities (and the last fix too) re-detect nothing. */
export const LATE_MARGIN_KM = 50;

export interface PassageStageState {
  /** The last fix the stage has seen: epoch ms and position. */
  t: number;
  lat: number;
  lon: number;
  /** The last Essingeleden crossing, while a pass may still go on. */
  e?: { t: number; d: 'in' | 'out' };
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Checked by hand: ingest reads it for every message of every unit. */
function parseState(stored: unknown): PassageStageState | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const s = stored as Record<string, unknown>;
  if (!isNumber(s['t']) || !isNumber(s['lat']) || !isNumber(s['lon'])) return undefined;
  const e = s['e'] as Record<string, unknown> | undefined;
  const d = e?.['d'];
  const pass: PassageStageState['e'] = e && isNumber(e['t']) && (d === 'in' || d === 'out') ? { t: e['t'], d } : undefined;
  return { t: s['t'], lat: s['lat'], lon: s['lon'], ...(pass ? { e: pass } : {}) };
}

/** The passages of one step, each with where it crossed (interpolated like its time). */
export function stepPassages(from: Fix, to: Fix, last: EssingeledenPass | null): { passages: StoredPassage[]; last: EssingeledenPass | null } {
  const step = passagesOfStep(from, to, last);
  const span = to.t - from.t;
  const passages = step.passages.map((p): StoredPassage => {
    const s = span > 0 ? (p.time - from.t) / span : 0;
    return { ...p, lat: Math.round((from.lat + s * (to.lat - from.lat)) * 1e6) / 1e6, lon: Math.round((from.lon + s * (to.lon - from.lon)) * 1e6) / 1e6 };
  });
  return { passages, last: step.last };
}

export const passageStage: IngestStage<PassageStageState> = {
  name: PASSAGE_STAGE,
  parse: parseState,
  run({ unit, previous, before, positions, late }) {
    const registeredAt = registeredAtOf(unit);
    // A state stored before this stage existed: the unit's state is its last fix.
    let last: Fix | null = previous ? { t: previous.t, lat: previous.lat, lon: previous.lon } : before ? { t: before.ts, lat: before.lat, lon: before.lon } : null;
    if (last && last.t < registeredAt) last = null;
    let pass: EssingeledenPass | null = previous?.e ? { time: previous.e.t, direction: previous.e.d } : null;
    const effects: Effect[] = [];
    for (const p of positions) {
      const fix: Fix = { t: p.ts, lat: p.lat, lon: p.lon };
      if (last) {
        const step = stepPassages(last, fix, pass);
        pass = step.last;
        for (const passage of step.passages) effects.push({ id: `${PASSAGE_FOUND}:${passage.stationId}:${passage.time}`, kind: PASSAGE_FOUND, payload: { ...passage } });
      }
      last = fix;
    }
    // Far from both cities a late window holds no passage: no effect, no reads.
    const seen = previous ? { lat: previous.lat, lon: previous.lon } : before;
    if (late.length && [...late, ...(seen ? [seen] : [])].some((p) => nearControlLines(p, LATE_MARGIN_KM))) {
      const fromTs = late[0]!.ts;
      const toTs = late[late.length - 1]!.ts;
      // Up to the fix the stage had seen before this batch: later steps are this batch's own.
      const untilTs = Math.max(toTs, previous?.t ?? before?.ts ?? toTs);
      effects.push({ id: `${PASSAGES_REDETECT}:${fromTs}:${toTs}`, kind: PASSAGES_REDETECT, payload: { fromTs, toTs, untilTs } });
    }
    // A pass ends after ESSINGELEDEN_PASS_MS without a crossing: nothing to carry.
    if (pass && last && last.t - pass.time > ESSINGELEDEN_PASS_MS) pass = null;
    if (!last) return { state: undefined, effects };
    return { state: { t: last.t, lat: last.lat, lon: last.lon, ...(pass ? { e: { t: pass.time, d: pass.direction } } : {}) }, effects };
  },
};

const passageSchema = z.object({
  stationId: z.string(),
  city: z.enum(['stockholm', 'gothenburg']),
  station: z.string(),
  direction: z.enum(['in', 'out']),
  time: z.number(),
  uncertain: z.boolean(),
  essingeleden: z.literal(true).optional(),
  backa: z.enum(['station', 'control']).optional(),
  lat: z.number().optional(),
  lon: z.number().optional(),
});
const windowSchema = z.object({ fromTs: z.number(), toTs: z.number(), untilTs: z.number() });

/** Stores a passage (idempotent: one already stored is left as it is). */
const sendPassage: EffectSender = async (effect, unit) => {
  await putPassage(unit.accountId, unit.imei, passageSchema.parse(effect.payload));
};

async function queryFixes(imei: string, fromTs: number, toTs: number, options: { backwards?: boolean; limit?: number }): Promise<Fix[]> {
  const { positions } = await readPositions(imei, fromTs, toTs, { attributes: ['lat', 'lon'], backwards: options.backwards, consistent: true, max: options.limit });
  return positions.map((p) => ({ t: p.ts, lat: p.lat, lon: p.lon }));
}

/**
 * Re-detects a late window: the stored fixes from the one before the first late position to the
 * one after the last (up to `untilTs`), with the Essingeleden pass carried from the stored passage
 * before it; the window's stored passages become the ones found.
 */
const sendRedetect: EffectSender = async (effect, unit) => {
  const { fromTs, toTs, untilTs } = windowSchema.parse(effect.payload);
  const registeredAt = Math.max(0, registeredAtOf(unit));
  const [prev] = await queryFixes(unit.imei, registeredAt, fromTs - 1, { backwards: true, limit: 1 });
  const [next] = toTs < untilTs ? await queryFixes(unit.imei, toTs + 1, untilTs, { limit: 1 }) : [];
  const fixes = await queryFixes(unit.imei, prev?.t ?? fromTs, next?.t ?? toTs, {});
  if (fixes.length < 2) return;
  const first = fixes[0]!.t;
  const end = fixes[fixes.length - 1]!.t;
  const before = await lastPassageBefore(unit.accountId, unit.imei, first);
  let pass: EssingeledenPass | null = before?.essingeleden ? { time: before.time, direction: before.direction } : null;
  const found: StoredPassage[] = [];
  for (let k = 1; k < fixes.length; k++) {
    const step = stepPassages(fixes[k - 1]!, fixes[k]!, pass);
    pass = step.last;
    found.push(...step.passages);
  }
  const keep = new Set(found.map(passageSk));
  const stored = await unitPassages(unit.accountId, unit.imei, first, end, { consistent: true });
  await deletePassages(unit.accountId, unit.imei, stored.filter((p) => !keep.has(passageSk(p))));
  for (const p of found) await putPassage(unit.accountId, unit.imei, p);
};

export const PASSAGE_EFFECT_SENDERS: Readonly<Record<string, EffectSender>> = {
  [PASSAGE_FOUND]: sendPassage,
  [PASSAGES_REDETECT]: sendRedetect,
};
