/**
 * The built-in schedule of the 1st of each month (job `attestation-reminders`, infra/jobs.ts): every
 * driver with unattested trips in the previous month gets one reminder to attest it, the trip log's
 * own reminder e-mail (functions/trips/reminder-email.ts) in their language and brand.
 *
 * The units with trips in the month are the month's rollup items (functions/trips/unit-days.ts),
 * read through the rollups' byDay index (its partition is the month), a page at a time from a
 * checkpoint kept per month, so a run that stops (its time is up, or it failed) is continued by the
 * next run of the day, and no table is scanned; the run ends once the last page is done. Each driver and month is claimed with a conditional write before the e-mail, so
 * racing runs and pages read twice remind a driver once; a failed send gives the claim back.
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { localDayOf, localDaysRange, monthDays } from '../../shared/local-time';
import { addMonthsToDay } from '../../shared/schemas/trips';
import { dynamo, tableName } from '../platform/db';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { getUnitItems } from '../domain/unit/reads';
import { accountUsers } from '../trips/people';
import { renderReminderEmail } from '../trips/reminder-email';
import { unitTrips } from '../trips/trip-repository';
import { isAttested } from '../trips/trip-item';
import { claimOnce, moveMarker, readMarker, releaseClaim } from './schedule-repository';

/** The months of the trip log are local months in this zone, as the job's own schedule. */
export const REMINDER_ZONE = 'Europe/Stockholm';
/** Unit months per page of the walk. */
const PAGE = 100;

export interface ReminderReport {
  month: string;
  accounts: number;
  sent: number;
  done: boolean;
}

/** The drivers (user ids) with unattested trips in the month on these units of the account. */
async function driversToRemind(accountId: string, imeis: readonly string[], month: string): Promise<Set<string>> {
  const { first, last } = monthDays(month);
  const { fromMs, toMs } = localDaysRange(first, last, REMINDER_ZONE);
  const drivers = new Set<string>();
  for (const unit of (await getUnitItems(imeis)).values()) {
    if (unit instanceof Error || unit.accountId !== accountId) continue;
    for (const trip of await unitTrips(unit, fromMs, toMs - 1)) {
      if (!isAttested(trip) && trip.driverId) drivers.add(trip.driverId);
    }
  }
  return drivers;
}

async function remindAccount(accountId: string, imeis: readonly string[], month: string, ports: Pick<Ports, 'mailer' | 'clock'>): Promise<number> {
  const drivers = await driversToRemind(accountId, imeis, month);
  if (!drivers.size) return 0;
  let sent = 0;
  for (const person of await accountUsers(accountId)) {
    if (!drivers.has(person.userId) || !person.email) continue;
    const pk = `reminder#${month}`;
    const sk = `${accountId}#${person.userId}`;
    const at = ports.clock.now().getTime();
    if (!(await claimOnce(pk, sk, at))) continue;
    try {
      const mail = renderReminderEmail({ lang: person.lang, subsiteId: person.subsiteId, firstName: person.firstName, month });
      await ports.mailer.send({ to: person.email, ...mail });
      sent++;
    } catch (error) {
      await releaseClaim(pk, sk, at);
      throw error;
    }
  }
  return sent;
}

interface Checkpoint {
  step: number;
  next: Record<string, unknown> | null;
  done: boolean;
}

/**
 * One run: on the 1st (local), pages of accounts from the month's checkpoint until the last page or
 * `budgetMs` has passed. On any other day nothing.
 */
export async function runAttestationReminders(ports: Pick<Ports, 'mailer' | 'clock'>, budgetMs: number): Promise<ReminderReport> {
  const started = ports.clock.now().getTime();
  const today = localDayOf(started, REMINDER_ZONE);
  const month = addMonthsToDay(`${today.slice(0, 7)}-01`, -1).slice(0, 7);
  const report: ReminderReport = { month, accounts: 0, sent: 0, done: false };
  if (!today.endsWith('-01')) return report;
  const pk = `reminder-run#${month}`;
  for (;;) {
    const marker = (await readMarker(pk, 'checkpoint')) as Checkpoint | null;
    if (marker?.done) return { ...report, done: true };
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('unitDays'),
        IndexName: 'byDay',
        KeyConditionExpression: '#day = :month',
        ExpressionAttributeNames: { '#day': 'day' },
        ExpressionAttributeValues: { ':month': month },
        ProjectionExpression: 'accountId, imei, trips',
        Limit: PAGE,
        ...(marker?.next ? { ExclusiveStartKey: marker.next } : {}),
      }),
    );
    // The page's units with trips, by account (the index keeps an account's units together).
    const byAccount = new Map<string, string[]>();
    for (const item of page.Items ?? []) {
      if (typeof item['trips'] !== 'number' || item['trips'] <= 0) continue;
      const accountId = String(item['accountId']);
      byAccount.set(accountId, [...(byAccount.get(accountId) ?? []), String(item['imei'])]);
    }
    for (const [accountId, imeis] of byAccount) {
      report.sent += await remindAccount(accountId, imeis, month, ports);
      report.accounts++;
    }
    const next = page.LastEvaluatedKey ?? null;
    // Another run moved the checkpoint meanwhile: it goes on from there (claims kept this page's e-mails single).
    if (!(await moveMarker(pk, 'checkpoint', marker?.step ?? null, { step: (marker?.step ?? 0) + 1, next, done: next === null }, started))) return report;
    if (next === null) {
      logger.info('attestation reminders done', { month });
      return { ...report, done: true };
    }
    if (ports.clock.now().getTime() - started > budgetMs) return report;
  }
}
