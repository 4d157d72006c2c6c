/**
 * Which reports the caller may run, apart from the page (the sidebar asks too): the kinds this
 * release computes, narrowed by the feature profile and the basic-only subscription.
 */
import { basicReportKinds, reportKinds, type ReportKind } from '../../../../shared/schemas/reports';
import type { Settings } from '../../../../shared/schemas/system';

/**
 * The kinds the caller may run, in display order: what this release computes, narrowed by the
 * feature profile's reports (null: no profile limits the caller) and, for a basic-only account, to
 * the trip log. The server refuses the others with 403 ReportNotAllowed.
 */
export function offeredReportKinds(settings: Pick<Settings, 'basic_only' | 'profile_reports'>): ReportKind[] {
  return reportKinds.filter(
    (kind) =>
      (!settings.basic_only || (basicReportKinds as readonly string[]).includes(kind)) &&
      (!settings.profile_reports || settings.profile_reports.includes(kind)),
  );
}
