/**
 * The deep link into history playback on the map: a unit's route over a period, opened with one
 * click (the trip log's "open this trip's route in history").
 *
 *     /user/realtime-tracking?history=<imei>&from=<ISO 8601 instant>&to=<ISO 8601 instant>
 *
 * - `history`: the unit's IMEI (15 digits).
 * - `from`, `to`: instants with an offset or `Z`, as GET /api/v1/user/units/{imei}/positions takes
 *   them (`positionsQuerySchema`: `to` after `from`, at most HISTORY_MAX_DAYS apart). Build them
 *   with `historyUrl`, which writes `toISOString()` (UTC, milliseconds).
 *
 * The map selects the unit, opens its History tab and loads that period (the form shows it to the
 * minute in the browser's zone). Without `from` and `to` it loads the last hour. A period the API
 * would refuse opens the form with the reason on its fields; a unit the user may not see gives a
 * notice over the unit list. While a history is open the page keeps these parameters up to date
 * (replacing the history entry), so a reload or a copied address shows the same route.
 *
 * Also read, for links written before this format: `?imei=<imei>&history=1&from=…&to=…`.
 *
 * The map route exists only for accounts with the real-time map (`realtime_map`); without it the
 * link leads to the trip log, so offer it only where `canOpenHistory(settings)`.
 *
 * This module is small on purpose (no zod, no React): other features import it.
 */
import type { Settings } from '../../../../shared/schemas/system';
import { IMEI_PATTERN } from '../../../../shared/validators/imei';
import { paths } from '../../app/paths';

export const HISTORY_PARAM = 'history';
export const FROM_PARAM = 'from';
export const TO_PARAM = 'to';
/** The older form's unit parameter (with `history=1`). */
const LEGACY_IMEI_PARAM = 'imei';

/** A followed link: the unit, and the period as written (null where the link has none). */
export interface HistoryLink {
  imei: string;
  from: string | null;
  to: string | null;
}

const iso = (time: Date | string | number): string => new Date(typeof time === 'string' ? Date.parse(time) : time).toISOString();

/**
 * The map's history of `imei` from `from` to `to` (Dates, epoch ms or parseable date strings).
 * Throws a RangeError for a time that is no date.
 */
export function historyUrl(imei: string, from: Date | string | number, to: Date | string | number): string {
  const query = new URLSearchParams({ [HISTORY_PARAM]: imei, [FROM_PARAM]: iso(from), [TO_PARAM]: iso(to) });
  return `${paths.realtimeTracking}?${query.toString()}`;
}

/** Whether the account has the map that history playback is part of. */
export function canOpenHistory(settings: Pick<Settings, 'realtime_map'> | null | undefined): boolean {
  return settings?.realtime_map === true;
}

/** The link in a query string, or null when it names no unit. */
export function readHistoryLink(search: URLSearchParams | string): HistoryLink | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const history = params.get(HISTORY_PARAM);
  if (history === null) return null;
  const legacy = params.get(LEGACY_IMEI_PARAM);
  const imei = IMEI_PATTERN.test(history) ? history : legacy !== null && IMEI_PATTERN.test(legacy) ? legacy : null;
  if (!imei) return null;
  return { imei, from: params.get(FROM_PARAM), to: params.get(TO_PARAM) };
}

export const sameLink = (a: HistoryLink | null, b: HistoryLink | null): boolean =>
  a === b || (a !== null && b !== null && a.imei === b.imei && a.from === b.from && a.to === b.to);

/**
 * `search` with the link's parameters set to `link`, or removed with null; other parameters stay.
 * The older form's `imei` goes either way.
 */
export function withHistoryLink(search: URLSearchParams, link: HistoryLink | null): URLSearchParams {
  const next = new URLSearchParams(search);
  if (next.get(HISTORY_PARAM) !== null) next.delete(LEGACY_IMEI_PARAM);
  for (const name of [HISTORY_PARAM, FROM_PARAM, TO_PARAM]) next.delete(name);
  if (link) {
    next.set(HISTORY_PARAM, link.imei);
    if (link.from !== null) next.set(FROM_PARAM, link.from);
    if (link.to !== null) next.set(TO_PARAM, link.to);
  }
  return next;
}
