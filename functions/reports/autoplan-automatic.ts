/**
 * Automatic Autoplan reporting (job `autoplan-reports`, infra/jobs.ts; docs/decisions/0039-autoplan.md):
 * on the 1st, every vehicle of each account that opted in is reported for the previous month, as
 * the report route would (functions/reports/autoplan-service.ts), and the account's admins get the
 * result by e-mail once.
 *
 * The accounts are the `automatic` items (one Query a page, no Scan), their vehicles the units'
 * byAccount index. Each account's month is claimed before the work (functions/reports/autoplan-repository.ts),
 * so runs at the same time share the accounts out and a finished account is left alone by the
 * runs after it; each admin's e-mail is claimed before it is sent (and given back when sending
 * fails), so a run that stopped half-way and the run that continues it send it once.
 */
import { translateKey } from '../../shared/i18n/index';
import { AUTOPLAN_VEHICLE_TYPES, autoplanMessageKeys as keys, autoplanWindow, type AutoplanReport } from '../../shared/schemas/autoplan';
import type { Language } from '../../shared/schemas/common';
import { listAccountUnits } from '../domain/unit/reads';
import type { UnitItem } from '../domain/unit/schema';
import { renderTemplate } from '../platform/email/templates';
import { getEnv } from '../platform/env';
import { DomainError } from '../platform/errors';
import { logger } from '../platform/logger';
import type { Ports } from '../platform/ports';
import { accountUsers } from '../trips/people';
import { monthName, TRIP_LOG_PATH } from '../trips/reminder-email';
import { automaticAccounts, claimAccountRun, finishAccountRun, readMonthReport } from './autoplan-repository';
import { accountZone, reportMonth } from './autoplan-service';
import { claimOnce, releaseClaim } from './schedule-repository';

/** The result of one vehicle: its report, or the key of why it has none. */
export interface VehicleResult {
  unit: Pick<UnitItem, 'imei' | 'name' | 'registrationNumber'>;
  report: AutoplanReport | null;
  key: string;
}

export interface AutoplanRunReport {
  accounts: number;
  reported: number;
  failed: number;
  mails: number;
  done: boolean;
}

type JobPorts = Pick<Ports, 'autoplan' | 'clock' | 'mailer'>;

/** One vehicle: reported now, reported before (by a user, or a run that stopped), or why not. */
async function reportVehicle(unit: UnitItem, month: string, ports: JobPorts): Promise<VehicleResult> {
  try {
    return { unit, report: await reportMonth(unit, month, 'automatic', ports), key: keys.AutoplanReported };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.key === keys.AutoplanMonthAlreadyReported) {
      const before = await readMonthReport(unit.accountId, unit.imei, month);
      if (before) return { unit, report: before, key: keys.AutoplanReported };
    }
    return { unit, report: null, key: error.key };
  }
}

/** One line per vehicle in the recipient's language. */
export function resultLines(results: readonly VehicleResult[], lang: Language): string {
  const number = new Intl.NumberFormat(lang === 'no' ? 'nb' : lang, { maximumFractionDigits: 1 });
  return results
    .map(({ unit, report, key }) => {
      const name = unit.registrationNumber && unit.registrationNumber !== unit.name ? `${unit.name} (${unit.registrationNumber})` : unit.name;
      const what = report
        ? translateKey(lang, 'AutoplanEmailLineReported', { distance: number.format(report.distanceKm), business: number.format(report.businessKm), private: number.format(report.privateKm) })
        : translateKey(lang, key);
      return `${name}: ${what}`;
    })
    .join('\n');
}

async function mailAdmins(accountId: string, month: string, results: readonly VehicleResult[], ports: JobPorts): Promise<number> {
  const reported = results.filter((r) => r.report).length;
  const tripLogUrl = new URL(TRIP_LOG_PATH, getEnv().APP_URL).href;
  let sent = 0;
  for (const admin of await accountUsers(accountId)) {
    if (!admin.isAdmin || !admin.email) continue;
    const pk = `autoplan-mail#${month}`;
    const sk = `${accountId}#${admin.userId}`;
    const at = ports.clock.now().getTime();
    if (!(await claimOnce(pk, sk, at))) continue;
    try {
      const mail = renderTemplate('autoplanResult', admin.lang, admin.subsiteId, {
        month: monthName(month, admin.lang),
        reported: String(reported),
        vehicles: String(results.length),
        details: resultLines(results, admin.lang),
        tripLogUrl,
      });
      await ports.mailer.send({ to: admin.email, ...mail });
      sent++;
    } catch (error) {
      await releaseClaim(pk, sk, at);
      throw error;
    }
  }
  return sent;
}

/** One account: its vehicles reported and its admins told, unless another run has it or did it. */
async function reportAccount(accountId: string, ports: JobPorts, report: AutoplanRunReport): Promise<void> {
  const now = ports.clock.now().getTime();
  const window = autoplanWindow(now, await accountZone(accountId));
  if (!window.open) return;
  const held = await claimAccountRun(window.month, accountId, now);
  if (!held) return;
  const vehicles = (await listAccountUnits(accountId)).filter((u) => AUTOPLAN_VEHICLE_TYPES.includes(u.vehicleType));
  const results: VehicleResult[] = [];
  for (const unit of vehicles) results.push(await reportVehicle(unit, window.month, ports));
  report.accounts++;
  report.reported += results.filter((r) => r.report).length;
  report.failed += results.filter((r) => !r.report).length;
  if (results.length) report.mails += await mailAdmins(accountId, window.month, results, ports);
  await finishAccountRun(held, ports.clock.now().getTime());
}

/** One run: the opted-in accounts, a page at a time, until the last page or `budgetMs` has passed. */
export async function runAutoplanReports(ports: JobPorts, budgetMs: number): Promise<AutoplanRunReport> {
  const started = ports.clock.now().getTime();
  const report: AutoplanRunReport = { accounts: 0, reported: 0, failed: 0, mails: 0, done: false };
  let start: Record<string, unknown> | null = null;
  do {
    const page = await automaticAccounts(start);
    for (const accountId of page.accountIds) {
      try {
        await reportAccount(accountId, ports, report);
      } catch (error) {
        // One account's failure (its claim goes stale and a later run takes it over) does not stop the others.
        logger.error('Autoplan: an account could not be reported', { accountId, error: error as Error });
      }
      if (ports.clock.now().getTime() - started > budgetMs) return report;
    }
    start = page.next;
  } while (start);
  return { ...report, done: true };
}
