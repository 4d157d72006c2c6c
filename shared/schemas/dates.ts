/**
 * What a day and a date-time of a request are, for the zod schemas in shared/schemas (so the web
 * forms and the server agree), and for the functions that compute with them: a day is a calendar
 * day that exists, yyyy-MM-dd; a date-time is that day with a time of day that exists and, when it
 * has one, an offset a clock can show (`Z`, or -14:00 to +14:00). Anything else is no date, and a
 * rule over two dates (a period) says nothing about it: the field's own check answers it.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;
/** The farthest offsets from UTC any zone uses. */
const MAX_OFFSET_MINUTES = 14 * 60;

/** A calendar day that exists, yyyy-MM-dd, years 0001 to 9999. */
export function isCalendarDay(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const m = DAY.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}

/** `Z` or `±HH:MM` within ±14:00. */
export function isValidOffset(offset: string): boolean {
  if (offset === 'Z') return true;
  const m = /^[+-](\d{2}):(\d{2})$/.exec(offset);
  if (!m) return false;
  const [hours, minutes] = [Number(m[1]), Number(m[2])];
  return minutes < 60 && hours * 60 + minutes <= MAX_OFFSET_MINUTES;
}

/**
 * A date-time: `yyyy-MM-ddTHH:mm[:ss[.sss]]` (or a space for the T where `allowSpace`), a day that
 * exists, a time of day that exists, and an optional valid offset (`requireOffset` makes it needed).
 */
export function isDateTime(text: unknown, options: { allowSpace?: boolean; requireOffset?: boolean } = {}): text is string {
  if (typeof text !== 'string') return false;
  const m = DATE_TIME.exec(text);
  if (!m) return false;
  const [, day = '', hh = '', mm = '', ss = '0', offset] = m;
  if (!options.allowSpace && text[10] === ' ') return false;
  if (offset === undefined ? options.requireOffset : !isValidOffset(offset)) return false;
  return isCalendarDay(day) && Number(hh) < 24 && Number(mm) < 60 && Number(ss) < 60;
}
