/**
 * The outbox of My trips, as pure rules (the IndexedDB store is store.ts, the sending sync.ts):
 * every change the driver makes is an entry with its own idempotency key, sent in the order it
 * was made, each exactly once (the server keeps the first answer per key, docs/api.md).
 *
 * - Entries go out strictly in `seq` order. A network failure, a 5xx, a 409 (the same key still
 *   being applied), a 429 or a 401 (the session is being renewed) stops the run: that entry and
 *   everything after it wait for the next run, in the same order, with the same keys.
 * - Any other answer below 500 is the server's decision about that change: 2xx removes the entry;
 *   a refusal (423 attested meanwhile, 404 merged away, 422 validation, 403) keeps it, marked
 *   refused with the reason and the typed values, until the driver edits and sends it again (a new
 *   entry, a new key, at the end) or discards it. The run goes on with the next entry.
 */
import type { DriverCheckInRequest, Trip, TripUpdate } from '../../../../shared/schemas/trips';

export type OutboxChange =
  | { readonly kind: 'edit'; readonly tripId: string; readonly imei: string; readonly fields: TripUpdate }
  | { readonly kind: 'checkIn'; readonly request: DriverCheckInRequest & { qr: string; from: string } };

export interface Refusal {
  readonly status: number;
  /** The server's message key, or the first field key. */
  readonly key: string;
  readonly fieldErrors: Readonly<Record<string, readonly string[]>>;
}

export interface OutboxEntry {
  /** Set by the store, ascending in the order the changes were made. */
  readonly seq: number;
  /** The Idempotency-Key the change is sent with, every time. */
  readonly id: string;
  readonly createdAt: number;
  readonly change: OutboxChange;
  readonly refusal?: Refusal;
}

export type Verdict = 'sent' | 'refused' | 'retry';

/** What an answer means for the entry: a status of 0 is no answer at all (offline). */
export function verdictOf(status: number): Verdict {
  if (status >= 200 && status < 300) return 'sent';
  if (status === 0 || status >= 500 || status === 401 || status === 408 || status === 409 || status === 429) return 'retry';
  return 'refused';
}

/** The entries still to send, in the order they are sent. */
export function sendOrder(entries: readonly OutboxEntry[]): OutboxEntry[] {
  return entries.filter((e) => !e.refusal).sort((a, b) => a.seq - b.seq);
}

export interface RunStore {
  remove(seq: number): Promise<void>;
  markRefused(seq: number, refusal: Refusal): Promise<void>;
}

/** Sends one entry and answers the HTTP status (0 without an answer), the refusal when there is one. */
export type Sender = (entry: OutboxEntry) => Promise<{ status: number; refusal?: Refusal }>;

export interface RunResult {
  sent: number;
  refused: number;
  /** The run stopped at an entry that waits for the next run. */
  stopped: boolean;
}

/** One run over the outbox, in order; see the rules above. */
export async function runOutbox(entries: readonly OutboxEntry[], send: Sender, store: RunStore): Promise<RunResult> {
  const result: RunResult = { sent: 0, refused: 0, stopped: false };
  for (const entry of sendOrder(entries)) {
    const answer = await send(entry);
    const verdict = verdictOf(answer.status);
    if (verdict === 'retry') return { ...result, stopped: true };
    if (verdict === 'sent') {
      await store.remove(entry.seq);
      result.sent++;
    } else {
      await store.markRefused(entry.seq, answer.refusal ?? { status: answer.status, key: 'SomethingWentWrong', fieldErrors: {} });
      result.refused++;
    }
  }
  return result;
}

export interface TripView {
  /** The trip as the driver will see it once the waiting changes are applied. */
  readonly trip: Trip;
  readonly pending: readonly OutboxEntry[];
  readonly refused: readonly OutboxEntry[];
}

/** A stored trip with its waiting edits laid over it in order; refused edits are listed, not applied. */
export function tripView(trip: Trip, entries: readonly OutboxEntry[]): TripView {
  const own = entries.filter((e) => e.change.kind === 'edit' && e.change.tripId === trip.id).sort((a, b) => a.seq - b.seq);
  const pending = own.filter((e) => !e.refusal);
  let shown: Trip = trip;
  for (const entry of pending) {
    if (entry.change.kind !== 'edit') continue;
    const fields = entry.change.fields;
    shown = {
      ...shown,
      ...(fields.type !== undefined ? { type: fields.type } : {}),
      ...(fields.purpose !== undefined ? { purpose: fields.purpose || null } : {}),
      ...(fields.note !== undefined ? { note: fields.note || null } : {}),
      ...(fields.passengers !== undefined ? { passengers: fields.passengers || null } : {}),
    };
  }
  return { trip: shown, pending, refused: own.filter((e) => e.refusal) };
}

/** The fields the form changed against what the trip shows (only these are sent). */
export function changedFields(shown: Pick<Trip, 'type' | 'purpose' | 'note' | 'passengers'>, values: { type: Trip['type']; purpose: string; note: string; passengers: string }): TripUpdate {
  const out: TripUpdate = {};
  if (values.type !== shown.type) out.type = values.type;
  for (const field of ['purpose', 'note', 'passengers'] as const) {
    const typed = values[field].trim();
    if (typed !== (shown[field] ?? '')) out[field] = typed === '' ? null : typed;
  }
  return out;
}
