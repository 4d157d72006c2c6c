/**
 * Whether an instant falls in weekly windows of local time (shared/schemas/schedule.ts) in a zone:
 * a geofence's deactivation windows, a place rule's schedule. Cheap enough for ingest's hot path:
 * the zone's offset is cached per UTC day (shared/local-time.ts offsetAt).
 */
import { wallTimeInWindows, type WeeklyWindow } from '../../shared/schemas/schedule';
import { offsetAt } from '../../shared/local-time';

/** ISO weekday (1 Monday ... 7 Sunday) and minute of the day of an instant's wall time in a zone. */
export function wallTimeAt(ms: number, zone: string): { weekday: number; minute: number } {
  const wall = ms + offsetAt(ms, zone);
  const day = Math.floor(wall / 86_400_000);
  // 1970-01-01 was a Thursday (ISO 4).
  const weekday = ((((day + 3) % 7) + 7) % 7) + 1;
  const minute = Math.floor((wall - day * 86_400_000) / 60_000);
  return { weekday, minute };
}

export function inWeeklyWindows(ms: number, zone: string, windows: readonly WeeklyWindow[]): boolean {
  if (windows.length === 0) return false;
  const { weekday, minute } = wallTimeAt(ms, zone);
  return wallTimeInWindows(weekday, minute, windows);
}
