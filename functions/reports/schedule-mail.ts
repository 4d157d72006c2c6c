/**
 * The e-mails of a schedule's export, once its file is stored: to each recipient the portal link,
 * in the schedule's language and brand (the `reportReady` template). Each recipient of a period is
 * claimed with a conditional write before the send, so racing consumers, redeliveries and a retry
 * after a failed send e-mail each recipient once; a failed send gives its claim back and fails the
 * message, whose retry sends what is left. Nothing is sent when the schedule is gone, or when it
 * skips empty reports and this one has no rows.
 */
import { translateKey } from '../../shared/i18n/index';
import type { Language } from '../../shared/schemas/common';
import type { ReportKind } from '../../shared/schemas/reports';
import { renderTemplate } from '../platform/email/templates';
import { getEnv } from '../platform/env';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import type { ExportJobItem } from './export-repository';
import { claimOnce, getSchedule, releaseClaim, sentClaimKey } from './schedule-repository';

/** The web app's reports page naming one export: it signs the user in if needed and offers the file through the portal link (GET /reports/exports/{id}/download). */
export const exportPagePath = (id: string): string => `/user/create-triplog/reports?export=${encodeURIComponent(id)}`;

/** A report kind's name in a language (the feature profiles' report names). */
export const reportKindName = (kind: ReportKind, lang: Language): string => translateKey(lang, `ProfileReport${kind.charAt(0).toUpperCase()}${kind.slice(1)}`);

export function renderReportReadyEmail(v: { lang: Language; brand: number; kind: ReportKind; from: string; to: string; id: string }, appUrl: string = getEnv().APP_URL) {
  const period = v.from === v.to ? v.from : `${v.from} – ${v.to}`;
  return renderTemplate('reportReady', v.lang, v.brand, { report: reportKindName(v.kind, v.lang), period, link: new URL(exportPagePath(v.id), appUrl).href }, appUrl);
}

export async function mailScheduledExport(job: ExportJobItem, ports: Pick<Ports, 'mailer' | 'clock'>): Promise<void> {
  if (job.status !== 'done' || !job.scheduleId || !job.period) return;
  const schedule = await getSchedule(job.userId, job.scheduleId, { consistent: true });
  if (!schedule) return;
  if (schedule.skipEmpty && job.rows === 0) {
    logger.info('scheduled report empty; no e-mail', { scheduleId: schedule.id, period: job.period });
    return;
  }
  const mail = renderReportReadyEmail({ lang: schedule.lang, brand: schedule.brand, kind: job.kind, from: job.params.from, to: job.params.to, id: job.id });
  const failures: unknown[] = [];
  for (const to of schedule.recipients) {
    const { pk, sk } = sentClaimKey(schedule.id, job.period, to);
    const at = ports.clock.now().getTime();
    if (!(await claimOnce(pk, sk, at, { jobId: job.id }))) continue;
    try {
      await ports.mailer.send({ to, ...mail });
    } catch (error) {
      await releaseClaim(pk, sk, at);
      failures.push(error);
    }
  }
  if (failures.length) throw new Error(`${failures.length} of ${schedule.recipients.length} report e-mails were not sent`, { cause: failures[0] });
}
