/**
 * The unit's odometer and engine hours as corrected by the latest readings a user entered
 * (docs/decisions/0027-odometer-and-operating-hours.md). Pure: the editor (GET /units/{imei}, from
 * the latest entries) and ingest's service stage (from their copies on the unit, unit-copies)
 * count the same way.
 *
 * - Odometer: the entry's km plus what the unit's counter advanced since, when the counter now is
 *   of the entry's source (the tracker's odometer, or trip detection's computed counter), the
 *   trip log's rule (functions/trips/odometer.ts odometerFromEntry). Without such a counter: the
 *   tracker's own odometer when it reports one, else the entry's value.
 * - Engine hours: the entry's hours plus (engine seconds now − engine seconds at the entry) / 3600.
 *   A tracker that reported no engine hours at the entry gives no counter to count from: the hours
 *   hold at the reading until the next one (`counted` false). A counter that went back (a reset
 *   or swapped tracker) counts nothing until the next reading.
 */
import type { HoursCorrection, OdometerCorrection } from '../../domain/unit/schema';

export interface LiveCounter {
  counterM: number;
  source: 'tracker' | 'computed';
}

/** The odometer in metres, or undefined when neither a reading nor the tracker gives one. */
export function correctedOdometerM(correction: OdometerCorrection | undefined, counter: LiveCounter | null): number | undefined {
  if (correction) {
    if (correction.counterM !== undefined && counter && (correction.source ?? counter.source) === counter.source) {
      return correction.valueKm * 1000 + (counter.counterM - correction.counterM);
    }
    if (counter?.source !== 'tracker') return correction.valueKm * 1000;
  }
  return counter?.source === 'tracker' ? counter.counterM : undefined;
}

/** The engine hours in seconds, and whether they advance with the tracker's counter. */
export function correctedEngineSeconds(correction: HoursCorrection | undefined, engineSeconds: number | undefined): { seconds: number | undefined; counted: boolean } {
  if (!correction) return { seconds: engineSeconds, counted: engineSeconds !== undefined };
  const base = correction.valueHours * 3600;
  if (correction.counterS === undefined || engineSeconds === undefined) return { seconds: base, counted: false };
  return { seconds: base + Math.max(0, engineSeconds - correction.counterS), counted: true };
}
