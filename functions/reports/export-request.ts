/**
 * What an export job is made of and how it is shown: its normalised request (the hash that makes
 * identical requests one job), the file's type and download name, and the job as the API answers it.
 */
import { createHash } from 'node:crypto';
import { isoInZone } from '../../shared/local-time';
import type { ExportFormat, ReportQuery, ReportRequest } from '../../shared/schemas/reports';
import { REPORT_FILES_PREFIX, type ReportJob } from '../../shared/schemas/report-exports';
import { routes } from '../../shared/routes';
import type { Language } from '../../shared/schemas/common';
import type { ExportJobItem } from './export-repository';

export { REPORT_CONTENT_TYPES as CONTENT_TYPES } from './render/index';

/** The filters of a request with absent ones left out and the units sorted: equal requests, equal params. */
export function normalisedParams(query: ReportQuery): ReportQuery {
  const entries = Object.entries(query).filter(([, value]) => value !== undefined && value !== '');
  const params = Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b))) as ReportQuery;
  if (params.imeis) {
    if (params.imeis.length) params.imeis = [...params.imeis].sort();
    else delete params.imeis;
  }
  return params;
}

/** The hash that identifies a request: the kind, the filters, format, language, zone and brand. */
export function requestHash(request: { kind: string; params: ReportQuery; format: ExportFormat; lang: Language; timeZone: string; brand: number }): string {
  const canonical = JSON.stringify([request.kind, request.params, request.format, request.lang, request.timeZone, request.brand]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

export const reportRequestOf = (job: Pick<ExportJobItem, 'kind' | 'params'>): ReportRequest => ({ ...job.params, kind: job.kind });

/** `tripLog-2026-01-01-2026-01-31.pdf`: what the browser saves the file as. */
export const downloadNameOf = (job: Pick<ExportJobItem, 'kind' | 'params' | 'format'>): string => `${job.kind}-${job.params.from}-${job.params.to}.${job.format}`;

export const fileKeyOf = (job: Pick<ExportJobItem, 'id'>): string => `${REPORT_FILES_PREFIX}${job.id}`;

/** The portal link of a job: the download route, which checks the session and the owner before it redirects to the file. */
export const portalLinkOf = (id: string): string => routes.downloadReportExport.path.replace('{id}', encodeURIComponent(id));

/** A job as the API answers it, times in the caller's zone. */
export function toReportJob(job: ExportJobItem, zone: string): ReportJob {
  return {
    id: job.id,
    kind: job.kind,
    format: job.format,
    from: job.params.from,
    to: job.params.to,
    status: job.status,
    progress: Math.min(1, Math.max(0, job.progress)),
    ...(job.status === 'done' ? { url: portalLinkOf(job.id) } : {}),
    ...(job.status === 'failed' && job.error ? { error: job.error } : {}),
    createdAt: isoInZone(job.createdAt, zone),
    ...(job.finishedAt ? { finishedAt: isoInZone(job.finishedAt, zone) } : {}),
    expiresAt: isoInZone(job.expiresAt * 1000, zone),
    ...(job.scheduleId ? { scheduleId: job.scheduleId } : {}),
  };
}
