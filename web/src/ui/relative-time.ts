/**
 * Times the server sends in UTC, for people: "5 minutes ago" in the user's language
 * (Intl.RelativeTimeFormat) and the absolute date and time in the user's time zone (the browser's,
 * unless given). Formatters are costly to make and every list row needs one: one per locale and options.
 */

function cached<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (!value) {
    value = make();
    cache.set(key, value);
  }
  return value;
}
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const absoluteFormats = new Map<string, Intl.DateTimeFormat>();
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of an instant in a time zone: [year, month 1-12, day]. */
function localDay(ms: number, timeZone: string | undefined): [number, number, number] {
  const format = cached(dayFormats, timeZone ?? '', () =>
    new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: 'numeric', day: 'numeric', ...(timeZone ? { timeZone } : {}) }),
  );
  const parts = Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
  return [Number(parts['year']), Number(parts['month']), Number(parts['day'])];
}

/**
 * How long ago, as people count it. Under a minute it is "now", or with `seconds` "45 seconds ago"
 * (where seconds matter: a command waiting for its answer, a unit that reports live); under an
 * hour, minutes; earlier the same day, hours. Before today it counts calendar days in the user's
 * time zone (the browser's, unless given): at 02:44 an event of the evening before last is
 * "2 days ago", not "yesterday" because fewer than 48 hours passed. From a month back, calendar
 * months, then years. A time ahead of the browser's clock is a skew and reads as now.
 */
export function relativeTime(iso: string, now: number, locale: string, options: { seconds?: boolean; timeZone?: string } = {}): string {
  const format = cached(relativeFormats, locale, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));
  const then = Date.parse(iso);
  const seconds = Math.max(0, (now - then) / 1000);
  if (seconds < 60) return format.format(options.seconds ? -Math.floor(seconds) : 0, 'second');
  if (seconds < 3_600) return format.format(-Math.floor(seconds / 60), 'minute');
  const [y1, m1, d1] = localDay(now, options.timeZone);
  const [y0, m0, d0] = localDay(then, options.timeZone);
  const days = Math.round((Date.UTC(y1, m1 - 1, d1) - Date.UTC(y0, m0 - 1, d0)) / 86_400_000);
  if (days <= 0) return format.format(-Math.floor(seconds / 3_600), 'hour');
  const months = (y1 - y0) * 12 + (m1 - m0) - (d1 < d0 ? 1 : 0);
  if (months >= 12) return format.format(-Math.floor(months / 12), 'year');
  if (months >= 1) return format.format(-months, 'month');
  return format.format(-days, 'day');
}

/** Date and time in the user's time zone (the browser's, unless given), with seconds when asked. */
export function absoluteTime(iso: string, locale: string, options: { timeZone?: string; seconds?: boolean } = {}): string {
  const { timeZone, seconds = false } = options;
  const format = cached(absoluteFormats, `${locale} ${timeZone ?? ''} ${seconds}`, () =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: seconds ? 'medium' : 'short', ...(timeZone ? { timeZone } : {}) }),
  );
  return format.format(new Date(iso));
}
