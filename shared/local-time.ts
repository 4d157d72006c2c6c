/**
 * Local days and wall-clock times in an IANA zone (the TimeZone header), with Intl only: times are
 * stored in UTC (epoch ms) and a period of local days becomes [start of the first day, start of the
 * day after the last) in the caller's zone, daylight saving included.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallOf(ms: number, zone: string): Wall {
  const wall: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') wall[part.type] = Number(part.value);
  }
  return { year: wall['year'] ?? 1970, month: wall['month'] ?? 1, day: wall['day'] ?? 1, hour: wall['hour'] ?? 0, minute: wall['minute'] ?? 0, second: wall['second'] ?? 0 };
}

function exactOffsetAt(ms: number, zone: string): number {
  const w = wallOf(ms, zone);
  const whole = Math.floor(ms / 1000) * 1000;
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - whole;
}

const UTC_DAY_MS = 86_400_000;
/** Per zone and UTC day: the offset when it is the same all day, null on a day the zone's clocks change. */
const dayOffsets = new Map<string, number | null>();

/**
 * The zone's offset from UTC at an instant, ms (Stockholm in summer: +7 200 000). Clocks change at
 * most once a day, so a day whose first and last second have one offset has it throughout: a year of
 * trips costs a few hundred Intl calls instead of two per trip.
 */
export function offsetAt(ms: number, zone: string): number {
  const day = Math.floor(ms / UTC_DAY_MS);
  const key = `${zone}|${day}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    const first = exactOffsetAt(day * UTC_DAY_MS, zone);
    offset = first === exactOffsetAt((day + 1) * UTC_DAY_MS - 1000, zone) ? first : null;
    if (dayOffsets.size >= 20_000) dayOffsets.clear();
    dayOffsets.set(key, offset);
  }
  return offset ?? exactOffsetAt(ms, zone);
}

/**
 * The instant at which the zone's clocks show a wall time (given as epoch ms of that wall time read
 * as UTC). On a fall-back overlap it is the earlier instant; in a spring-forward gap, the time after it.
 */
export function wallToInstant(wallMs: number, zone: string): number {
  const first = wallMs - offsetAt(wallMs, zone);
  const second = wallMs - offsetAt(first, zone);
  if (first === second) return first;
  // Two candidates: the earlier one that really shows this wall time, else (a gap) the later one.
  const earlier = Math.min(first, second);
  return earlier + offsetAt(earlier, zone) === wallMs ? earlier : Math.max(first, second);
}

const dayParts = (day: string): [number, number, number] => {
  const [y = 1970, m = 1, d = 1] = day.split('-').map(Number);
  return [y, m, d];
};

/** When a local day (yyyy-MM-dd) begins in the zone, epoch ms. */
export function startOfLocalDay(day: string, zone: string): number {
  const [y, m, d] = dayParts(day);
  return wallToInstant(Date.UTC(y, m - 1, d), zone);
}

/** yyyy-MM-dd plus days. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = dayParts(day);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** A period of local days as [fromMs, toMs): from the start of `from` to the start of the day after `to`. */
export function localDaysRange(from: string, to: string, zone: string): { fromMs: number; toMs: number } {
  return { fromMs: startOfLocalDay(from, zone), toMs: startOfLocalDay(addDays(to, 1), zone) };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The local day of an instant in the zone, yyyy-MM-dd. */
export function localDayOf(ms: number, zone: string): string {
  // Through the cached offset: ingest stages ask for every message.
  return new Date(ms + offsetAt(ms, zone)).toISOString().slice(0, 10);
}

/** ISO 8601 with the zone's offset at that instant: 2025-03-10T09:00:00.000+01:00. */
export function isoInZone(ms: number, zone: string): string {
  const offset = offsetAt(ms, zone);
  const local = new Date(ms + offset).toISOString().slice(0, 23);
  const sign = offset < 0 ? '-' : '+';
  const minutes = Math.abs(Math.round(offset / 60_000));
  return `${local}${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * A date-time of a request (shared/schemas/trips.ts dateTimeSchema) as epoch ms: with an offset it is
 * that instant, a naive one is a wall time in the zone. NaN when it is not one.
 */
export function parseDateTime(text: string, zone: string): number {
  if (/(Z|[+-]\d{2}:\d{2})$/.test(text)) return Date.parse(text);
  const wall = Date.parse(`${text}Z`);
  return Number.isNaN(wall) ? NaN : wallToInstant(wall, zone);
}

/** The first day of a month (yyyy-MM) and its last day. */
export function monthDays(month: string): { first: string; last: string } {
  const first = `${month}-01`;
  const [y, m] = dayParts(first);
  return { first, last: new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10) };
}
