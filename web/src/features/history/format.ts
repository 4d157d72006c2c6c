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
    return {
      time: (ms) => time.format(ms),
      range: (from, to) => range.formatRange(Date.parse(from), Date.parse(to)),
      speed: (kmh) => (kmh === null ? t('HistoryNotReported') : speed.format(kmh)),
    };
  }, [locale, t]);
}
