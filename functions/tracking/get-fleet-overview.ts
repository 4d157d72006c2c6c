/**
 * GET /api/v1/user/fleet-overview (docs/decisions/0032-fleet-overview.md): the fleet's figures for
 * the units the caller may see, in the caller's time zone. A bounded number of reads whatever the
 * fleet's size: the account's units (one Query of byAccount, which the map reads too), the
 * quarter-hour trip rollups of the week, the month rollups, the account's attestations and its
 * alarms of the last day (one Query each, followed page by page).
 */
import { isoInZone, monthDays } from '../../shared/local-time';
import { routes } from '../../shared/routes';
import { FLEET_ALARM_HOURS, type FleetOverview } from '../../shared/schemas/fleet-overview';
import { addMonthsToDay } from '../../shared/schemas/trips';
import { accountAlarms } from '../events/event-repository';
import { httpHandler } from '../platform/http';
import { registeredAtOf } from '../domain/unit/schema';
import { accountAttestations } from '../trips/attestation-reads';
import { monthEntries, quarterEntries } from '../trips/trip-rollup-reads';
import { fleetWindows, pastMonths, statusCounts, sumTrips, unattestedMonths, unitServiceState } from './fleet-figures';
import { realtimeUnitsOf } from './realtime-units';
import { accountFeatures, featureProfileFeatures } from '../platform/auth-context';
import { profileAllows } from '../../shared/feature-profiles';
import { meetsFeature } from '../../shared/features';
import type { ProfileFeature } from '../../shared/schemas/organisation';

/** More alarms than this in a day are answered as this many, `truncated`. */
const ALARMS_COUNTED_MAX = 10_000;

export const handler = httpHandler(routes.getFleetOverview, async ({ auth, ports, query, timeZone }): Promise<FleetOverview> => {
  const now = ports.clock.now().getTime();
  const windows = fleetWindows(now, timeZone);
  const months = pastMonths(windows.today, query.attestMonths);
  const oldest = monthDays(months[months.length - 1] ?? windows.today.slice(0, 7)).first;
  const newest = monthDays(months[0] ?? windows.today.slice(0, 7)).last;
  const alarmsFrom = now - FLEET_ALARM_HOURS * 3_600_000;

  // Only what the caller may use: an ordinary user's feature profile, and the account's map.
  const [profile, account] = await Promise.all([
    auth.featureProfileId === undefined ? null : featureProfileFeatures(auth.accountId, auth.featureProfileId),
    accountFeatures(auth.accountId),
  ]);
  const may = (feature: ProfileFeature) => profileAllows(profile, feature);
  const showStatus = may('realtimeMap') && meetsFeature(account, 'realtimeMap');
  const showTrips = may('tripLog');
  const showAlarms = may('alarms');

  const [{ items, units }, quarters, monthRollups, attestations, alarms] = await Promise.all([
    realtimeUnitsOf(auth, now),
    showTrips ? quarterEntries(auth.accountId, windows.weekFromMs, windows.toMs) : [],
    showTrips ? monthEntries(auth.accountId, months[months.length - 1] ?? '', months[0] ?? '') : [],
    // An attestation may start up to 12 months before the days it covers.
    showTrips ? accountAttestations(auth.accountId, addMonthsToDay(oldest, -12), oldest, newest) : [],
    showAlarms ? accountAlarms(auth.accountId, alarmsFrom, now, ALARMS_COUNTED_MAX) : { items: [], more: false },
  ]);

  const visible = new Set(items.map((u) => u.imei));
  const registeredAt = new Map(items.map((u) => [u.imei, registeredAtOf(u)]));
  const service = items.map((u) => unitServiceState(u.serviceIntervals, u.stages?.['service'], now));
  const today = sumTrips(quarters, visible, windows.todayFromMs, windows.toMs);
  const week = sumTrips(quarters, visible, windows.weekFromMs, windows.toMs);
  // Only the visible units' alarms (others have no entry here), since their registration: an IMEI's
  // earlier events belong to a previous owner.
  const alarmCount = alarms.items.filter((a) => a.ts >= (registeredAt.get(a.imei) ?? Infinity)).length;

  return {
    generatedAt: isoInZone(now, timeZone),
    units: items.length,
    status: showStatus ? statusCounts(units, now) : null,
    today: showTrips ? { from: windows.today, to: windows.today, ...today } : null,
    week: showTrips ? { from: windows.weekStart, to: windows.today, ...week } : null,
    alarms: showAlarms ? { count: alarmCount, since: isoInZone(alarmsFrom, timeZone), truncated: alarms.more } : null,
    service: { units: service.filter((s) => s !== 'ok').length, overdue: service.filter((s) => s === 'overdue').length },
    attestation: showTrips ? { checked: months.length, months: unattestedMonths(months, monthRollups, attestations, visible) } : null,
  };
});
