/** "2 min ago" in the user's language (Intl.RelativeTimeFormat), for times the server sent in UTC. */
const steps: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', Infinity],
];

export function relativeTime(iso: string, now: number, locale: string): string {
  // A time a little ahead of the browser's clock is "now", not "in 2 seconds".
  let value = Math.min(0, (Date.parse(iso) - now) / 1000);
  let unit: Intl.RelativeTimeFormatUnit = 'second';
  for (const [step, size] of steps) {
    unit = step;
    if (Math.abs(value) < size) break;
    value /= size;
  }
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(Math.trunc(value), unit);
}

/** Date and time in the browser's time zone, for the title of a relative time. */
export function absoluteTime(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));
}
