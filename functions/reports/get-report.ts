/**
 * GET /api/v1/user/reports/{kind}: the report model, in the caller's language and the TimeZone
 * header's zone. A report built from trips (the trip log, benefit value, theft, eco driving) over more than a
 * month or more than 20 units is made by an export job in `json` instead: 202 with the job, whose
 * file is the model (docs/decisions/0034-reports.md).
 */
import { addDays } from '../../shared/local-time';
import { routes } from '../../shared/routes';
import type { ReportKind } from '../../shared/schemas/reports';
import { apiKeyMessageKeys } from '../../shared/schemas/api-keys';
import { ValidationError } from '../platform/errors';
import { accepted, httpHandler } from '../platform/http';
import { buildReport, reportScope } from './build';
import { toReportJob } from './export-request';
import { startExport } from './export-service';

/** The most local days and units a report from trips answers at once. */
export const SCREEN_DAYS_MAX = 31;
export const SCREEN_UNITS_MAX = 20;
const FROM_TRIPS: readonly ReportKind[] = ['tripLog', 'benefitValue', 'theft', 'ecoDriving', 'congestion'];

/** Local days from `from` to `to`, both included. */
const daysOf = (from: string, to: string): number => Math.round((Date.parse(`${addDays(to, 1)}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

export const handler = httpHandler(routes.getReport, async ({ auth, params, query, timeZone, ports }) => {
  const { lang: asked, ...filters } = query;
  const lang = asked ?? auth.lang;
  const request = { ...filters, kind: params.kind };
  if (FROM_TRIPS.includes(params.kind)) {
    // Refused here as the job would refuse it, so a request that cannot run makes no job.
    const { units } = await reportScope({ request, caller: auth, lang });
    if (daysOf(query.from, query.to) > SCREEN_DAYS_MAX || units.length > SCREEN_UNITS_MAX) {
      // An export job belongs to a user and is read back in the portal; a key asks for smaller reports.
      if (auth.apiKeyId) throw new ValidationError({ query: [apiKeyMessageKeys.ApiKeyReportTooLarge] }, apiKeyMessageKeys.ApiKeyReportTooLarge);
      const now = ports.clock.now().getTime();
      const job = await startExport(auth, { ...request, format: 'json', lang }, timeZone, ports, now);
      return accepted({ job: toReportJob(job, timeZone) });
    }
  }
  return buildReport({ request, caller: auth, lang, timeZone, now: ports.clock.now() });
});
