import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage, intlLocale } from '../../i18n/i18n';

export interface HistoryFormat {
  /** Date and time to the second in the browser's time zone. */
  time(ms: number): string;
  /** A period of two ISO times, short ("21 Nov 2026, 18:05 – 19:05"). */
  range(from: string, to: string): string;
  /** km/h, or the text for a speed the tracker did not report. */
  speed(kmh: number | null): string;
  /** Date and time to the minute ("4 May 2026, 08:12"). */
  moment(ms: number): string;
  /** Two instants to the minute, the date once when they share it ("4 May 2026, 08:00–08:12"). */
  period(from: number, to: number): string;
  /** A duration to the minute: "5 mins", "2 hrs 5 mins", "1 day 3 hrs". */
  duration(ms: number): string;
  /** The speed chart's time axis: the time of day, or the day for a period of days. */
  axisTime(ms: number): string;
  axisDay(ms: number): string;
}

/** Formats in the current language (Swedish and Norwegian get their own date order and decimal comma). */
export function useHistoryFormat(): HistoryFormat {
  // Subscribes to language changes; currentLanguage() reads the language it changed to.
  const { t } = useTranslation();
  const locale = intlLocale(currentLanguage());
  return useMemo(() => {
    const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
    const range = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    const speed = new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilometer-per-hour', maximumFractionDigits: 0 });
    const unit = (name: 'day' | 'hour' | 'minute') => new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay: 'short' });
    const days = unit('day');
    const hours = unit('hour');
    const minutes = unit('minute');
    const clock = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
    const day = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' });
    return {
      time: (ms) => time.format(ms),
      range: (from, to) => range.formatRange(Date.parse(from), Date.parse(to)),
      speed: (kmh) => (kmh === null ? t('HistoryNotReported') : speed.format(kmh)),
      moment: (ms) => range.format(ms),
      period: (from, to) => range.formatRange(from, to),
      duration: (ms) => {
        const total = Math.round(ms / 60_000);
        const d = Math.floor(total / 1440);
        const h = Math.floor((total % 1440) / 60);
        const m = total % 60;
        if (d > 0) return h > 0 ? `${days.format(d)} ${hours.format(h)}` : days.format(d);
        if (h > 0) return m > 0 ? `${hours.format(h)} ${minutes.format(m)}` : hours.format(h);
        return minutes.format(m);
      },
      axisTime: (ms) => clock.format(ms),
      axisDay: (ms) => day.format(ms),
    };
  }, [locale, t]);
}
