/** What the stop list and a stop's marker and details say about it. */
import type { TFunction } from 'i18next';
import type { HistoryFormat } from '../format';
import type { Stop } from '../stops';

export interface StopTexts {
  /** The whole stop in one line: its number, times and duration (the marker's and entry's name). */
  label: string;
  /** "4 May 2026, 08:00–08:12". */
  period: string;
  arrived: string;
  left: string;
  /** "7 mins", or "At least 7 mins" for a stop the period cuts. */
  duration: string;
}

export function stopTexts(stop: Stop, number: number, format: HistoryFormat, t: TFunction): StopTexts {
  const period = format.period(stop.arrival, stop.departure);
  const length = format.duration(stop.durationMs);
  const duration = stop.fromStart || stop.toEnd ? t('HistoryStopAtLeast', { duration: length }) : length;
  return {
    label: t('HistoryStopLabel', { number, period, duration }),
    period,
    arrived: stop.fromStart ? t('HistoryStopBeforePeriod', { time: format.moment(stop.arrival) }) : format.moment(stop.arrival),
    left: stop.toEnd ? t('HistoryStopStillThere', { time: format.moment(stop.departure) }) : format.moment(stop.departure),
    duration,
  };
}
