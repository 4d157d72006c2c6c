/**
 * Export jobs (docs/decisions/0037-report-jobs-and-schedules.md): a request becomes a job at once
 * (202) and a message on the `report-export` queue, whose consumer makes the file
 * (functions/reports/export-run.ts). The same request of the same user while its job is queued or
 * running answers that job: the request's claim names the job, and job and claim are written in
 * one transaction conditional on the claim as read.
 */
import { createHash } from 'node:crypto';
import { queueList } from '../../shared/queues';
import { REPORT_DOWNLOAD_URL_SECONDS, REPORT_EXPORTS_LISTED, reportExportMessageKeys as keys, type ReportExportRequest } from '../../shared/schemas/report-exports';
import type { AuthContext } from '../platform/auth-context';
import { ConflictError, NotFoundError } from '../platform/errors';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import {
  claimedJobId,
  deleteJob,
  failQueuedJob,
  getJob,
  KEEP_MS,
  newJobId,
  putJobClaiming,
  putJobOnce,
  recentJobs,
  type ExportJobItem,
} from './export-repository';
import { CONTENT_TYPES, downloadNameOf, normalisedParams, requestHash } from './export-request';

const queue = queueList.find((q) => q.name === 'report-export');
/**
 * How long a queued or running job can still be alive: every receive of its message (the queue's
 * visibility timeout each). An older one was lost (its message dead-lettered), and the same
 * request starts a new job instead of waiting for it for ever.
 */
export const JOB_LIFETIME_MS = (queue?.visibilityTimeoutSeconds ?? 5400) * (queue?.maxReceiveCount ?? 3) * 1000;

export const isActive = (job: Pick<ExportJobItem, 'status' | 'createdAt'>, now: number): boolean =>
  (job.status === 'queued' || job.status === 'running') && job.createdAt > now - JOB_LIFETIME_MS;

/** What an export is made of: whose, what report, in which format, language, zone and brand. */
export type ExportSpec = Pick<ExportJobItem, 'userId' | 'accountId' | 'kind' | 'params' | 'format' | 'lang' | 'timeZone' | 'brand'>;

function newJob(spec: ExportSpec, id: string, now: number, extra: Pick<ExportJobItem, 'scheduleId' | 'period'> = {}): ExportJobItem {
  const params = normalisedParams(spec.params);
  return {
    userId: spec.userId,
    sk: '',
    id,
    accountId: spec.accountId,
    requestHash: requestHash({ ...spec, params }),
    kind: spec.kind,
    params,
    format: spec.format,
    lang: spec.lang,
    timeZone: spec.timeZone,
    brand: spec.brand,
    status: 'queued',
    progress: 0,
    createdAt: now,
    attempts: 0,
    expiresAt: Math.floor((now + KEEP_MS) / 1000),
    ...extra,
  };
}

async function enqueue(job: ExportJobItem, ports: Pick<Ports, 'queues'>, now: number): Promise<void> {
  try {
    await ports.queues.send('report-export', { userId: job.userId, jobId: job.id });
  } catch (error) {
    // Not left queued for ever: the same request may start again at once.
    await failQueuedJob(job, keys.ReportExportFailed, now);
    throw error;
  }
}

/** POST /reports/exports: the running job of the same request, or a new one. */
export async function startExport(caller: AuthContext, request: ReportExportRequest, timeZone: string, ports: Pick<Ports, 'queues'>, now: number): Promise<ExportJobItem> {
  const { kind, format, lang, ...query } = request;
  const spec: ExportSpec = { userId: caller.userId, accountId: caller.accountId, kind, params: query, format, lang: lang ?? caller.lang, timeZone, brand: caller.subsiteId };
  // A lost race means another identical request wrote the claim first: read it again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const candidate = newJob(spec, newJobId(now), now);
    const previous = await claimedJobId(caller.userId, candidate.requestHash);
    if (previous !== null) {
      const running = await getJob(caller.userId, previous, { consistent: true });
      if (running && isActive(running, now)) return running;
    }
    if (await putJobClaiming(candidate, previous)) {
      await enqueue(candidate, ports, now);
      logger.info('report export queued', { userId: caller.userId, id: candidate.id, kind, format });
      return candidate;
    }
  }
  throw new ConflictError();
}

/**
 * The job of a schedule's period: its id is fixed by the schedule, the period and the time it was
 * due, so two runs at once store one job; both send its message, and the consumer runs it once.
 */
export async function startScheduledExport(
  spec: ExportSpec,
  schedule: { id: string; period: string; dueAt: number },
  ports: Pick<Ports, 'queues'>,
  now: number,
): Promise<ExportJobItem> {
  const digest = createHash('sha256').update(`${schedule.id}|${schedule.period}|${schedule.dueAt}`).digest('hex').slice(0, 16);
  const id = `${schedule.dueAt.toString(36).padStart(9, '0')}-s${digest}`;
  const job = newJob(spec, id, now, { scheduleId: schedule.id, period: schedule.period });
  const stored = await putJobOnce(job);
  const current = stored ? job : await getJob(spec.userId, id, { consistent: true });
  if (current?.status === 'queued') await ports.queues.send('report-export', { userId: current.userId, jobId: current.id });
  return current ?? job;
}

/**
 * Another user's job is not found. An expired job (the item's TTL deletes it within days on AWS;
 * DynamoDB Local never does) is deleted here with its file, and not found either.
 */
export async function ownJob(caller: Pick<AuthContext, 'userId'>, id: string, ports: Pick<Ports, 'files'>, now: number): Promise<ExportJobItem> {
  const job = await getJob(caller.userId, id);
  if (!job) throw new NotFoundError();
  if (job.expiresAt * 1000 <= now) {
    await removeExpired(job, ports);
    throw new NotFoundError();
  }
  return job;
}

async function removeExpired(job: ExportJobItem, ports: Pick<Ports, 'files'>): Promise<void> {
  if (job.fileKey) await ports.files.delete(job.fileKey);
  await deleteJob(job);
}

/** The caller's recent jobs, newest first; expired ones are removed on the way (see ownJob). */
export async function listExports(caller: Pick<AuthContext, 'userId'>, ports: Pick<Ports, 'files'>, now: number): Promise<ExportJobItem[]> {
  const jobs = await recentJobs(caller.userId, REPORT_EXPORTS_LISTED);
  const expired = jobs.filter((job) => job.expiresAt * 1000 <= now);
  await Promise.all(expired.map((job) => removeExpired(job, ports)));
  return jobs.filter((job) => job.expiresAt * 1000 > now);
}

/** The short-lived URL of a done job's file, for the portal link's redirect. */
export async function downloadUrl(caller: Pick<AuthContext, 'userId'>, id: string, ports: Pick<Ports, 'files'>, now: number): Promise<string> {
  const job = await ownJob(caller, id, ports, now);
  if (job.status !== 'done' || !job.fileKey) throw new ConflictError(keys.ReportExportNotReady);
  return ports.files.viewUrl(job.fileKey, CONTENT_TYPES[job.format], REPORT_DOWNLOAD_URL_SECONDS, { downloadName: downloadNameOf(job) });
}
