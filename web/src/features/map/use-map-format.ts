import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage, intlLocale } from '../../i18n/i18n';
import { formatCoordinates } from '../../ui/coordinates';
import { absoluteTime, relativeTime } from '../../ui/relative-time';

export interface MapFormat {
  /** km/h, or "Not reported". */
  speed(kmh: number | null): string;
  /** Volts with one decimal, or "Not reported". */
  volts(value: number | null): string;
  /** "2 minutes ago" for a time the server sent in UTC. */
  relative(iso: string, now: number): string;
  /** Date and time in the browser's time zone. */
  absolute(iso: string): string;
  coordinates(lat: number, lon: number): string;
}

/** Formats in the current language: Swedish and Norwegian get their own words and the decimal comma (coordinates keep the point). */
export function useMapFormat(): MapFormat {
  // Subscribes to language changes; currentLanguage() reads the language it changed to.
  const { t } = useTranslation();
  const locale = intlLocale(currentLanguage());
  return useMemo(() => {
    const speed = new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilometer-per-hour', maximumFractionDigits: 0 });
    const volts = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    return {
      speed: (kmh) => (kmh === null ? t('MapNotReported') : speed.format(kmh)),
      volts: (value) => (value === null ? t('MapNotReported') : t('MapVolts', { value: volts.format(value) })),
      relative: (iso, now) => relativeTime(iso, now, locale, { seconds: true }),
      absolute: (iso) => absoluteTime(iso, locale, { seconds: true }),
      coordinates: formatCoordinates,
    };
  }, [locale, t]);
}
