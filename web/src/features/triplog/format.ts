import { useTranslation } from 'react-i18next';
import { currentLanguage, intlLocale } from '../../i18n/i18n';

export interface TripFormat {
  locale: string;
  /** A local day (yyyy-MM-dd) as a heading: "Monday 3 March 2025". */
  day(day: string): string;
  /** A local day, short: "3 Mar 2025". */
  shortDay(day: string): string;
  /** The clock time of an instant, to the minute. */
  time(iso: string): string;
  /** Date and time of an instant, short. */
  dateTime(iso: string): string;
  /** km with up to one decimal ("12.3 km", "12,3 km"). */
  km(km: number): string;
  /** An odometer reading in whole km, or a dash. */
  odometer(km: number | null): string;
}

/**
 * One set of formatters per locale for the page's life: making an Intl formatter costs far more
 * than formatting with it, and every row and dialog of the trip log asks for these (a profile of
 * the trip log's browser test had their making among the page's costliest functions).
 */
const formats = new Map<string, TripFormat>();

function tripFormat(locale: string): TripFormat {
  const known = formats.get(locale);
  if (known) return known;
  const day = new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const shortDay = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const km = new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1, minimumFractionDigits: 1 });
  const odometer = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const dayMs = (d: string) => Date.parse(`${d}T12:00:00Z`);
  const format: TripFormat = {
    locale,
    day: (d) => {
      const text = day.format(dayMs(d));
      return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
    },
    shortDay: (d) => shortDay.format(dayMs(d)),
    time: (iso) => time.format(Date.parse(iso)),
    dateTime: (iso) => dateTime.format(Date.parse(iso)),
    km: (value) => km.format(value),
    odometer: (value) => (value === null ? '–' : odometer.format(value)),
  };
  formats.set(locale, format);
  return format;
}

/** Formats in the current language and the browser's time zone (the zone the API reads days in). */
export function useTripFormat(): TripFormat {
  // Subscribes to language changes; currentLanguage() reads the language it changed to.
  useTranslation();
  return tripFormat(intlLocale(currentLanguage()));
}
