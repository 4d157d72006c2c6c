/**
 * The `report-export` queue's work (shared/queues.ts): one message per job, `{ userId, jobId }`.
 *
 * The job is taken under a lease (a conditional update), so a message delivered twice runs it
 * once, and a done or failed job is left as it is. The owner is read again (a user deleted since
 * the request fails the job); the producer (functions/reports/export-produce.ts, handed in by the
 * consumer handler) builds the report as the owner and streams the file into the FileStore.
 * Progress is written at most every 10 %. A producer that throws fails the job with the error's
 * key when it is a refusal of the report (403, 404, 422) and ReportExportFailed otherwise; the file
 * is not stored then (the FileStore's write is destroyed). Once the file is stored the job is done,
 * and a schedule's recipients get their e-mails (functions/reports/schedule-mail.ts), each once.
 */
import { z } from 'zod';
import { reportExportMessageKeys as keys } from '../../shared/schemas/report-exports';
import type { ExportFormat, ReportRequest } from '../../shared/schemas/reports';
import type { Language } from '../../shared/schemas/common';
import { authContextOf, type AuthContext } from '../platform/auth-context';
import { getUserItem } from '../domain/user/reads';
import { DomainError } from '../platform/errors';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { queueConsumer } from '../platform/queue-consumer';
import { failJob, finishJob, getJob, leaseJob, setProgress, type ExportJobItem } from './export-repository';
import { CONTENT_TYPES, fileKeyOf, reportRequestOf } from './export-request';
import { mailScheduledExport } from './schedule-mail';

/** What the producer makes a file of: the report request, as whom, in which format, language, zone and brand. */
export interface ExportWork {
  id: string;
  request: ReportRequest;
  caller: AuthContext;
  format: ExportFormat;
  lang: Language;
  timeZone: string;
  brand: number;
  /** The consumer's clock when it took the job (the report's "now"). */
  now: Date;
}
/** What the producer learnt: how many rows the report has (0: empty, a schedule with skipEmpty sends nothing). */
export interface ExportOutcome {
  rows: number;
}
/** Writes the file of `job` to `out` (and ends it), telling progress as a fraction 0..1. */
export type ExportProducer = (job: ExportWork, out: NodeJS.WritableStream, progress: (fraction: number) => void) => Promise<ExportOutcome>;

export const exportMessageSchema = z.object({ userId: z.string().min(1), jobId: z.string().min(1) });
export type ExportMessage = z.infer<typeof exportMessageSchema>;

/**
 * A running job's lease: longer than its consumer may run (15 minutes, shared/capability-resources.ts),
 * much shorter than the queue's visibility timeout, so a redelivery after a consumer that stopped
 * finds the lease over and runs the job again, while a duplicate delivery meanwhile leaves it alone.
 */
export const LEASE_MS = 16 * 60_000;
/** Progress is written when it moved on by this much since the last write. */
export const PROGRESS_STEP = 0.1;
/** Refusals of the report itself keep their key; anything else is ReportExportFailed. */
const REFUSALS = new Set([403, 404, 422]);

/** The owner as a member request would see them, without a session: the producer builds the report with their access as it is now. */
async function ownerContext(job: ExportJobItem): Promise<AuthContext | null> {
  const user = await getUserItem(job.userId, { consistent: true });
  if (!user || user.accountId !== job.accountId) return null;
  return authContextOf(user, { sessionId: `report-export-${job.id}`, expiresAt: 0 });
}

/** Writes progress at most every PROGRESS_STEP, one write at a time, never holding the producer up. */
function progressWriter(job: ExportJobItem): { report: (fraction: number) => void; settled: () => Promise<void> } {
  let written = 0;
  let chain = Promise.resolve();
  return {
    report(fraction) {
      const value = Math.min(0.99, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
      if (value - written < PROGRESS_STEP) return;
      written = value;
      chain = chain
        .then(() => setProgress(job, Math.round(value * 100) / 100))
        .then(() => undefined)
        .catch((error: unknown) => logger.warn('report export progress not written', { id: job.id, error: (error as Error).message }));
    },
    settled: () => chain,
  };
}

export type RunResult = 'done' | 'failed' | 'skipped';

/** Runs one message's job; idempotent. Throws only when the queue should hand the message out again (a storage or mail failure). */
export async function runExport(message: ExportMessage, ports: Pick<Ports, 'files' | 'mailer' | 'clock'>, produce: ExportProducer): Promise<RunResult> {
  const found = await getJob(message.userId, message.jobId, { consistent: true });
  if (!found) {
    logger.warn('report export job not found; message dropped', { ...message });
    return 'skipped';
  }
  if (found.status === 'done') {
    // A redelivery after the file was stored: only e-mails that did not go out yet are sent.
    await mailScheduledExport(found, ports);
    return 'skipped';
  }
  const now = ports.clock.now().getTime();
  const job = found.status === 'failed' ? null : await leaseJob(found, now, LEASE_MS);
  if (!job) return 'skipped';

  const caller = await ownerContext(job);
  if (!caller) {
    await failJob(job, keys.ReportOwnerGone, ports.clock.now().getTime());
    return 'failed';
  }
  const fileKey = fileKeyOf(job);
  const write = ports.files.writeStream(fileKey, CONTENT_TYPES[job.format]);
  const progress = progressWriter(job);
  const work: ExportWork = { id: job.id, request: reportRequestOf(job), caller, format: job.format, lang: job.lang, timeZone: job.timeZone, brand: job.brand, now: new Date(now) };
  let outcome: ExportOutcome;
  try {
    const produced = produce(work, write.stream, progress.report);
    produced.catch(() => undefined);
    // A store that fails first (S3 refusing a part) would leave the producer waiting on a full stream.
    outcome = await Promise.race([produced, write.done.then(() => produced)]);
    if (!write.stream.writableEnded) write.stream.end();
    await write.done;
  } catch (error) {
    write.stream.destroy(error instanceof Error ? error : new Error(String(error)));
    await write.done.catch(() => undefined);
    await progress.settled();
    const key = error instanceof DomainError && REFUSALS.has(error.status) ? error.key : keys.ReportExportFailed;
    logger.warn('report export failed', { id: job.id, userId: job.userId, kind: job.kind, format: job.format, key, error: (error as Error).message });
    await failJob(job, key, ports.clock.now().getTime());
    return 'failed';
  }
  await progress.settled();
  const done = await finishJob(job, { fileKey, rows: outcome.rows, finishedAt: ports.clock.now().getTime() });
  if (!done) return 'skipped';
  logger.info('report export done', { id: job.id, userId: job.userId, kind: job.kind, format: job.format, rows: outcome.rows });
  await mailScheduledExport({ ...job, status: 'done', fileKey, rows: outcome.rows }, ports);
  return 'done';
}

/** The queue consumer of `report-export` with its producer. */
export function exportConsumer(produce: ExportProducer, ports: () => Pick<Ports, 'files' | 'mailer' | 'clock'>) {
  return queueConsumer('report-export', exportMessageSchema, (message) => runExport(message, ports(), produce));
}
