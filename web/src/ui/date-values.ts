/**
 * What the portal's time box accepts (web/src/ui/date-fields.tsx): a 24-hour time typed as 9,
 * 930, 0930, 9:30, 9.30 or 09:30, tidied to `HH:mm`; null when it is no time of day.
 */
export function normaliseTime(text: string): string | null {
  const trimmed = text.trim();
  const match = /^(\d{1,2})(?:[:.]?(\d{2}))?$/.exec(trimmed);
  if (!match) return null;
  let [, hours = '', minutes = '00'] = match;
  // 930 reads as 9:30, not 93 hours.
  if (match[2] === undefined && hours.length === 2 && Number(hours) > 23) return null;
  if (match[2] !== undefined && !/[:.]/.test(trimmed) && trimmed.length === 3) {
    hours = trimmed.slice(0, 1);
    minutes = trimmed.slice(1);
  }
  if (Number(hours) > 23 || Number(minutes) > 59) return null;
  return `${hours.padStart(2, '0')}:${minutes}`;
}
