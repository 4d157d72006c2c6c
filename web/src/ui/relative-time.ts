/**
 * Times the server sends in UTC, for people: "5 minutes ago" in the user's language
 * (Intl.RelativeTimeFormat) and the absolute date and time in the user's time zone (the browser's,
 * unless given). Formatters are costly to make and every list row needs one: one per locale and options.
 */
const STEPS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

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

/**
 * The largest whole unit ago. Under a minute it is "now", or with `seconds` "45 seconds ago" (where
 * seconds matter: a command waiting for its answer, a unit that reports live). A time ahead of the
 * browser's clock is a skew and reads as now.
 */
export function relativeTime(iso: string, now: number, locale: string, options: { seconds?: boolean } = {}): string {
  const format = cached(relativeFormats, locale, () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }));
  const seconds = Math.max(0, (now - Date.parse(iso)) / 1000);
  for (const [unit, size] of STEPS) {
    if (seconds >= size) return format.format(-Math.floor(seconds / size), unit);
  }
  return format.format(options.seconds ? -Math.floor(seconds) : 0, 'second');
}

/** Date and time in the user's time zone (the browser's, unless given), with seconds when asked. */
export function absoluteTime(iso: string, locale: string, options: { timeZone?: string; seconds?: boolean } = {}): string {
  const { timeZone, seconds = false } = options;
  const format = cached(absoluteFormats, `${locale} ${timeZone ?? ''} ${seconds}`, () =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: seconds ? 'medium' : 'short', ...(timeZone ? { timeZone } : {}) }),
  );
  return format.format(new Date(iso));
}
