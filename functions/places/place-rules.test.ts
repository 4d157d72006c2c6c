/**
 * Place rules typing a trip: every `when`, the radius edge, the schedule at the trip's start in
 * the place's zone, 'between' in both directions and without its other place, and the precedence
 * (between over start/end, then the nearest, then the id).
 */
import { describe, expect, it } from 'vitest';
import type { UnitPlace } from '../domain/unit/schema';
import { distanceM } from '../../shared/geo';
import { placeRuleFor, type TripEnds } from './place-rules';

const HOME = { lat: 59.3293, lon: 18.0686 };
const OFFICE = { lat: 59.4, lon: 17.95 };
const ELSEWHERE = { lat: 59.6, lon: 17.5 };
/** Monday 2025-06-02 08:00 in Stockholm (06:00 UTC). */
const MONDAY_8 = Date.parse('2025-06-02T06:00:00Z');
const SATURDAY_8 = Date.parse('2025-06-07T06:00:00Z');

function place(at: { lat: number; lon: number }, rule: UnitPlace['rule'], extra: Partial<UnitPlace> = {}): UnitPlace {
  return { label: 'p', lat: at.lat, lon: at.lon, radius: 100, rule, schedule: [], timeZone: 'Europe/Stockholm', ...extra };
}

function trip(from: { lat: number; lon: number }, to: { lat: number; lon: number }, startTs = MONDAY_8): TripEnds {
  return { startTs, startLat: from.lat, startLon: from.lon, stopLat: to.lat, stopLon: to.lon };
}

/** A point `metres` north of `at`. */
function north(at: { lat: number; lon: number }, metres: number) {
  return { lat: at.lat + metres / 111_195, lon: at.lon };
}

describe('placeRuleFor', () => {
  it('answers none without places or without a match', () => {
    expect(placeRuleFor(trip(HOME, OFFICE), undefined)).toBeNull();
    expect(placeRuleFor(trip(HOME, OFFICE), {})).toBeNull();
    expect(placeRuleFor(trip(OFFICE, ELSEWHERE), { home: place(HOME, { when: 'start', type: 'private' }) })).toBeNull();
  });

  it("'start' matches a trip that starts within the radius, 'end' one that ends within it", () => {
    const start = { home: place(HOME, { when: 'start', type: 'private' }) };
    expect(placeRuleFor(trip(HOME, OFFICE), start)).toMatchObject({ placeId: 'home', type: 'private', specificity: 1 });
    expect(placeRuleFor(trip(OFFICE, HOME), start)).toBeNull();
    const end = { home: place(HOME, { when: 'end', type: 'other' }) };
    expect(placeRuleFor(trip(OFFICE, HOME), end)).toMatchObject({ placeId: 'home', type: 'other' });
    expect(placeRuleFor(trip(HOME, OFFICE), end)).toBeNull();
  });

  it('counts the radius edge as inside', () => {
    const edge = north(HOME, 100);
    const d = distanceM(HOME.lat, HOME.lon, edge.lat, edge.lon);
    const exact = { home: place(HOME, { when: 'start', type: 'private' }, { radius: d }) };
    expect(placeRuleFor(trip(edge, OFFICE), exact)?.type).toBe('private');
    const smaller = { home: place(HOME, { when: 'start', type: 'private' }, { radius: d - 0.01 }) };
    expect(placeRuleFor(trip(edge, OFFICE), smaller)).toBeNull();
  });

  it("'between' matches either direction, and not a trip that only starts or ends there", () => {
    const places = {
      office: place(OFFICE, { when: 'between', type: 'business', otherPlaceId: 'home' }),
      home: place(HOME, { when: 'start', type: 'private' }, { label: 'home' }),
    };
    const noRule = { ...places, home: { ...places.home, rule: { when: 'end' as const, type: 'other' as const } } };
    expect(placeRuleFor(trip(HOME, OFFICE), places)).toMatchObject({ placeId: 'office', type: 'business', specificity: 2 });
    expect(placeRuleFor(trip(OFFICE, HOME), noRule)).toMatchObject({ placeId: 'office', type: 'business' });
    expect(placeRuleFor(trip(OFFICE, ELSEWHERE), { office: places.office, home: places.home })).toBeNull();
    expect(placeRuleFor(trip(HOME, ELSEWHERE), { office: places.office })).toBeNull();
  });

  it("'between' without its other place on the unit, or naming itself, matches nothing", () => {
    expect(placeRuleFor(trip(HOME, OFFICE), { office: place(OFFICE, { when: 'between', type: 'business', otherPlaceId: 'home' }) })).toBeNull();
    expect(placeRuleFor(trip(OFFICE, OFFICE), { office: place(OFFICE, { when: 'between', type: 'business', otherPlaceId: 'office' }) })).toBeNull();
  });

  it('applies a rule only within its schedule, read at the trip start in the saved zone', () => {
    const weekdays = [{ days: [1, 2, 3, 4, 5], from: '07:00', to: '09:00' }];
    const places = { home: place(HOME, { when: 'start', type: 'business' }, { schedule: weekdays }) };
    expect(placeRuleFor(trip(HOME, OFFICE, MONDAY_8), places)?.type).toBe('business');
    expect(placeRuleFor(trip(HOME, OFFICE, SATURDAY_8), places)).toBeNull();
    expect(placeRuleFor(trip(HOME, OFFICE, MONDAY_8 + 2 * 3_600_000), places)).toBeNull();
    // 08:00 in Stockholm is 07:00 in London: the same instant, read in another saved zone.
    const london = { home: place(HOME, { when: 'start', type: 'business' }, { schedule: [{ days: [1], from: '07:30', to: '09:00' }], timeZone: 'Europe/London' }) };
    expect(placeRuleFor(trip(HOME, OFFICE, MONDAY_8), london)).toBeNull();
  });

  it('prefers between over start and end, then the nearest place, then the id', () => {
    const between = {
      office: place(OFFICE, { when: 'between', type: 'other', otherPlaceId: 'home' }),
      home: place(HOME, { when: 'start', type: 'private' }),
    };
    expect(placeRuleFor(trip(HOME, OFFICE), between)?.placeId).toBe('office');

    const near = north(HOME, 10);
    const twoStarts = {
      far: place(north(HOME, 80), { when: 'start', type: 'business' }),
      near: place(HOME, { when: 'start', type: 'private' }),
    };
    expect(placeRuleFor(trip(near, OFFICE), twoStarts)?.placeId).toBe('near');

    const startAndEnd = {
      a: place(HOME, { when: 'start', type: 'private' }, { radius: 500 }),
      b: place(north(OFFICE, 5), { when: 'end', type: 'business' }, { radius: 500 }),
    };
    // The trip starts 300 m from a and ends 5 m from b: b is nearer.
    expect(placeRuleFor(trip(north(HOME, 300), OFFICE), startAndEnd)?.placeId).toBe('b');

    const tie = { z: place(HOME, { when: 'start', type: 'private' }), y: place(HOME, { when: 'start', type: 'other' }) };
    expect(placeRuleFor(trip(HOME, OFFICE), tie)).toMatchObject({ placeId: 'y', type: 'other' });
  });
});
