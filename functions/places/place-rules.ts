/**
 * Which place rule types a trip (pure; no I/O). Trip detection reads the rules from the unit's
 * copies (UnitItem.places, written by functions/places in the transaction that saves a place).
 *
 * A rule matches when its schedule holds the trip's start time (no windows: always; windows are
 * read in the zone saved with the place) and
 * - 'start': the trip starts within the place's radius (distance <= radius, the edge counts),
 * - 'end': it stops within it,
 * - 'between': it starts within one of the place and its other place and stops within the other,
 *   in either direction (the other place is read from the same unit's copies; without it the rule
 *   does not match).
 *
 * Precedence when several match: the most specific first ('between' over 'start' and 'end'), then
 * the nearest (the distance in metres from the matching end to the place's centre; for 'between'
 * the sum of both ends), then the place id, so the answer never depends on the map's order.
 */
import type { TripType } from '../../shared/schemas/trips';
import { inWeeklyWindows } from '../schedules/weekly-windows';
import type { UnitPlace } from '../domain/unit/schema';
import { distanceM } from '../../shared/geo';

export interface TripEnds {
  startTs: number;
  startLat: number;
  startLon: number;
  stopLat: number;
  stopLon: number;
}

export interface RuleMatch {
  placeId: string;
  type: TripType;
  /** 2 for 'between', 1 for 'start' and 'end'. */
  specificity: number;
  /** metres */
  distance: number;
}

const from = (place: UnitPlace, lat: number, lon: number): number => distanceM(place.lat, place.lon, lat, lon);

/** Whether the place's rule applies at an instant (its schedule; none: always). */
export function ruleAppliesAt(place: Pick<UnitPlace, 'schedule' | 'timeZone'>, ms: number): boolean {
  return place.schedule.length === 0 || inWeeklyWindows(ms, place.timeZone, place.schedule);
}

/** The match of one place's rule on a trip, or null. `places` holds the other place of a 'between' rule. */
export function matchPlaceRule(placeId: string, place: UnitPlace, trip: TripEnds, places: Readonly<Record<string, UnitPlace>>): RuleMatch | null {
  if (!ruleAppliesAt(place, trip.startTs)) return null;
  const start = from(place, trip.startLat, trip.startLon);
  const stop = from(place, trip.stopLat, trip.stopLon);
  const { when, type, otherPlaceId } = place.rule;
  if (when === 'start') return start <= place.radius ? { placeId, type, specificity: 1, distance: start } : null;
  if (when === 'end') return stop <= place.radius ? { placeId, type, specificity: 1, distance: stop } : null;
  const other = otherPlaceId === undefined || otherPlaceId === placeId ? undefined : places[otherPlaceId];
  if (!other) return null;
  const otherStart = from(other, trip.startLat, trip.startLon);
  const otherStop = from(other, trip.stopLat, trip.stopLon);
  if (start <= place.radius && otherStop <= other.radius) return { placeId, type, specificity: 2, distance: start + otherStop };
  if (otherStart <= other.radius && stop <= place.radius) return { placeId, type, specificity: 2, distance: otherStart + stop };
  return null;
}

const better = (a: RuleMatch, b: RuleMatch): boolean =>
  a.specificity !== b.specificity ? a.specificity > b.specificity : a.distance !== b.distance ? a.distance < b.distance : a.placeId < b.placeId;

/** The rule that types the trip (see the precedence above), or null when none matches. */
export function placeRuleFor(trip: TripEnds, places: Readonly<Record<string, UnitPlace>> | undefined): RuleMatch | null {
  let best: RuleMatch | null = null;
  for (const [id, place] of Object.entries(places ?? {})) {
    const match = matchPlaceRule(id, place, trip, places ?? {});
    if (match && (!best || better(match, best))) best = match;
  }
  return best;
}
