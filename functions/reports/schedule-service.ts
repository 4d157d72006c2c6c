/**
 * Report schedules of their owner (docs/decisions/0037-report-jobs-and-schedules.md): only the
 * user who made one sees, changes or deletes it (the owner is part of its key; another user's id
 * answers 404). Saving sets its next run from now in the zone of the request.
 */
import { randomBytes } from 'node:crypto';
import { isoInZone } from '../../shared/local-time';
import type { ReportSchedule, ReportScheduleRequest } from '../../shared/schemas/report-exports';
import type { AuthContext } from '../platform/auth-context';
import { NotFoundError } from '../platform/errors';
import { logger } from '../platform/logger';
import { deleteSchedule, dueBucketOf, getSchedule, ownSchedules, scheduleKey, writeSchedule, type ScheduleFilters, type ScheduleItem } from './schedule-repository';
import { nextRunAfter } from './schedule-periods';
import { normalisedParams } from './export-request';
import type { ReportQuery } from '../../shared/schemas/reports';

type Caller = Pick<AuthContext, 'userId' | 'accountId' | 'subsiteId'>;

function itemOf(caller: Caller, id: string, request: ReportScheduleRequest, zone: string, now: number, createdAt: number): ScheduleItem {
  const { kind, format, every, recipients, lang, skipEmpty, ...filters } = request;
  // The same normalisation as an export's request (without the period, which each run sets).
  const { from: _from, to: _to, ...normalised } = normalisedParams({ ...filters, from: '', to: '' } as ReportQuery);
  return {
    ...scheduleKey(caller.userId, id),
    id,
    userId: caller.userId,
    accountId: caller.accountId,
    kind,
    filters: normalised as ScheduleFilters,
    format,
    every,
    recipients,
    lang,
    skipEmpty,
    timeZone: zone,
    brand: caller.subsiteId,
    nextDueAt: nextRunAfter(every, zone, now),
    dueBucket: dueBucketOf(id),
    createdAt,
    updatedAt: now,
  };
}

export function toReportSchedule(item: ScheduleItem): ReportSchedule {
  return {
    id: item.id,
    kind: item.kind,
    ...item.filters,
    format: item.format,
    every: item.every,
    recipients: item.recipients,
    lang: item.lang,
    skipEmpty: item.skipEmpty,
    timeZone: item.timeZone,
    nextRunAt: isoInZone(item.nextDueAt, item.timeZone),
    ...(item.lastPeriod ? { lastPeriod: item.lastPeriod } : {}),
  };
}

export async function listSchedules(caller: Caller): Promise<ReportSchedule[]> {
  const items = await ownSchedules(caller.userId);
  return items.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id)).map(toReportSchedule);
}

export async function createSchedule(caller: Caller, request: ReportScheduleRequest, zone: string, now: number): Promise<string> {
  const id = `${now.toString(36).padStart(9, '0')}-${randomBytes(5).toString('hex')}`;
  const item = itemOf(caller, id, request, zone, now, now);
  if (!(await writeSchedule(item, false))) throw new Error(`report schedule ${id} exists already`);
  logger.info('report schedule created', { userId: caller.userId, id, kind: item.kind, every: item.every, recipients: item.recipients.length });
  return id;
}

export async function replaceSchedule(caller: Caller, id: string, request: ReportScheduleRequest, zone: string, now: number): Promise<ReportSchedule> {
  const current = await getSchedule(caller.userId, id, { consistent: true });
  if (!current) throw new NotFoundError();
  const item = { ...itemOf(caller, id, request, zone, now, current.createdAt), ...(current.lastPeriod ? { lastPeriod: current.lastPeriod } : {}) };
  // Deleted meanwhile: not found either.
  if (!(await writeSchedule(item, true))) throw new NotFoundError();
  return toReportSchedule(item);
}

export async function removeSchedule(caller: Caller, id: string): Promise<void> {
  if (!(await deleteSchedule(caller.userId, id))) throw new NotFoundError();
  logger.info('report schedule deleted', { userId: caller.userId, id });
}
