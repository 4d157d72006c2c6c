import { describe, expect, it } from 'vitest';
import { isMessageKey } from '../../../../shared/i18n/index';
import type { Trip } from '../../../../shared/schemas/trips';
import { tripMessageKeys } from '../../../../shared/schemas/trips-messages';
import { returnPathOf } from '../../app/paths';
import {
  changedFields,
  defaultPeriod,
  driverChoices,
  formValuesOf,
  groupByDay,
  imeiOfCheckInCode,
  mergePair,
  monthOf,
  periodErrors,
  previousMonthOf,
  purposeChoices,
  routeLimitError,
  landingUnit,
  toDateTimeInput,
  tripTotals,
  usedPurposes,
} from './trip-log';

const STOCKHOLM = 'Europe/Stockholm';
let seq = 0;

function trip(startTime: string, minutes: number, extra: Partial<Trip> = {}): Trip {
  seq += 1;
  return {
    id: `t${seq}`,
    imei: '356938031000007',
    startTime,
    stopTime: new Date(Date.parse(startTime) + minutes * 60_000).toISOString(),
    startAddress: 'Storgatan 1, Stockholm',
    stopAddress: 'Kungsgatan 5, Stockholm',
    startLat: 59.33,
    startLon: 18.06,
    stopLat: 59.34,
    stopLon: 18.07,
    startOdometer: 1000,
    stopOdometer: 1012,
    distance: 12.345,
    type: 'business',
    purpose: null,
    note: null,
    driverId: null,
    driverName: null,
    passengers: null,
    project: null,
    merged: false,
    attested: false,
    ...extra,
  };
}

describe('local days', () => {
  it('steps over month ends and leap days', () => {
    expect(monthOf('2024-02-10')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(previousMonthOf('2025-01-20')).toEqual({ from: '2024-12-01', to: '2024-12-31' });
  });

  it('opens on this month in the browser zone', () => {
    // 22:30 UTC on 31 May is already June in Stockholm.
    expect(defaultPeriod(new Date('2025-05-31T22:30:00Z'), STOCKHOLM)).toEqual({ from: '2025-06-01', to: '2025-06-30' });
  });

  it('writes a datetime-local value in local wall time', () => {
    expect(toDateTimeInput(new Date(2025, 2, 9, 7, 5))).toBe('2025-03-09T07:05');
  });
});

describe('periodErrors', () => {
  it('accepts up to 12 months and refuses more with the server key', () => {
    expect(periodErrors('2025-01-01', '2025-12-31')).toEqual({});
    expect(periodErrors('2025-01-01', '2026-01-01')).toEqual({ to: tripMessageKeys.TripPeriodTooLong });
  });
  it('refuses an end before the start and days that do not exist', () => {
    expect(periodErrors('2025-03-10', '2025-03-09')).toEqual({ to: tripMessageKeys.EndDateMustBeAfterStart });
    expect(periodErrors('2025-02-30', '2025-03-01')).toEqual({ from: tripMessageKeys.InvalidDate });
    expect(periodErrors('2025-03-01', '')).toEqual({ to: tripMessageKeys.InvalidDate });
  });
});

describe('groupByDay', () => {
  it('groups trips by the local day they start on, in time order, with each day’s distance', () => {
    const late = trip('2025-03-10T22:30:00Z', 60, { distance: 5 }); // 23:30 on the 10th in Stockholm, ends after midnight
    const early = trip('2025-03-10T05:00:00Z', 30, { distance: 10.1 });
    const nextDay = trip('2025-03-10T23:30:00Z', 20, { distance: 2.2 }); // 00:30 on the 11th in Stockholm
    const days = groupByDay([nextDay, late, early], STOCKHOLM);
    expect(days.map((d) => d.day)).toEqual(['2025-03-10', '2025-03-11']);
    expect(days[0]?.trips.map((t) => t.id)).toEqual([early.id, late.id]);
    expect(days[0]?.distance).toBe(15.1);
    expect(days[1]?.trips.map((t) => t.id)).toEqual([nextDay.id]);
  });

  it('counts a trip to the day in the browser zone (the same UTC trips fall on other days in New York)', () => {
    const t1 = trip('2025-03-10T02:00:00Z', 10);
    expect(groupByDay([t1], STOCKHOLM)[0]?.day).toBe('2025-03-10');
    expect(groupByDay([t1], 'America/New_York')[0]?.day).toBe('2025-03-09');
  });

  it('gives no days for no trips', () => {
    expect(groupByDay([], STOCKHOLM)).toEqual([]);
  });
});

describe('tripTotals', () => {
  it('counts trips and km per type, to 3 decimals', () => {
    const totals = tripTotals([
      trip('2025-03-10T06:00:00Z', 10, { type: 'business', distance: 0.1 }),
      trip('2025-03-10T07:00:00Z', 10, { type: 'business', distance: 0.2 }),
      trip('2025-03-10T08:00:00Z', 10, { type: 'private', distance: 7.125 }),
    ]);
    expect(totals).toEqual({
      business: { count: 2, distance: 0.3 },
      private: { count: 1, distance: 7.125 },
      other: { count: 0, distance: 0 },
    });
  });
});

describe('routeLimitError', () => {
  const day = (i: number, extra: Partial<Trip> = {}) => trip(`2025-03-10T${String(6 + i).padStart(2, '0')}:00:00Z`, 20, extra);

  it('allows up to 10 business or other trips of one day', () => {
    expect(routeLimitError(Array.from({ length: 10 }, (_, i) => day(i, { type: i % 2 ? 'other' : 'business' })), STOCKHOLM)).toBeNull();
  });
  it('refuses an 11th trip', () => {
    expect(routeLimitError(Array.from({ length: 11 }, (_, i) => day(i)), STOCKHOLM)).toBe(tripMessageKeys.RouteTooManyTrips);
  });
  it('refuses a private trip', () => {
    expect(routeLimitError([day(0), day(1, { type: 'private' })], STOCKHOLM)).toBe(tripMessageKeys.RoutePrivateTrip);
  });
  it('refuses trips of different days, and trips more than 7 days apart', () => {
    expect(routeLimitError([day(0), trip('2025-03-11T08:00:00Z', 20)], STOCKHOLM)).toBe(tripMessageKeys.RouteDifferentDays);
    expect(routeLimitError([day(0), trip('2025-03-18T08:00:00Z', 20)], STOCKHOLM)).toBe(tripMessageKeys.RouteSpanTooLong);
  });
  it('decides the day in the browser zone, not in UTC', () => {
    // 23:10 and 00:10 UTC are 00:10 and 01:10 of one Stockholm day (winter, +01:00).
    const pair = [trip('2025-01-10T23:10:00Z', 10), trip('2025-01-11T00:10:00Z', 10)];
    expect(routeLimitError(pair, STOCKHOLM)).toBeNull();
    expect(routeLimitError(pair, 'UTC')).toBe(tripMessageKeys.RouteDifferentDays);
    // 22:00 and 23:10 UTC are one UTC day but 23:00 and 00:10 in Stockholm.
    const other = [trip('2025-01-10T22:00:00Z', 10), trip('2025-01-10T23:10:00Z', 10)];
    expect(routeLimitError(other, 'UTC')).toBeNull();
    expect(routeLimitError(other, STOCKHOLM)).toBe(tripMessageKeys.RouteDifferentDays);
  });
  it('needs a trip', () => {
    expect(routeLimitError([], STOCKHOLM)).toBe(tripMessageKeys.NoTripsFound);
  });
});

describe('mergePair', () => {
  it('offers exactly two trips that are not attested, in time order', () => {
    const a = trip('2025-03-10T06:00:00Z', 10);
    const b = trip('2025-03-10T07:00:00Z', 10);
    expect(mergePair([b, a])?.map((t) => t.id)).toEqual([a.id, b.id]);
    expect(mergePair([a])).toBeNull();
    expect(mergePair([a, b, trip('2025-03-10T08:00:00Z', 10)])).toBeNull();
    expect(mergePair([a, { ...b, attested: true }])).toBeNull();
  });
});

describe('purposes', () => {
  it('lists purposes used before, the most used first, without spelling duplicates', () => {
    const trips = [
      trip('2025-03-10T06:00:00Z', 10, { purpose: 'Customer visit' }),
      trip('2025-03-10T07:00:00Z', 10, { purpose: 'customer visit ' }),
      trip('2025-03-10T08:00:00Z', 10, { purpose: 'Bank' }),
      trip('2025-03-10T09:00:00Z', 10, { purpose: '  ' }),
    ];
    expect(usedPurposes(trips, 'en')).toEqual(['Customer visit', 'Bank']);
    expect(purposeChoices(['Bank', 'Delivery'], usedPurposes(trips, 'en'))).toEqual(['Bank', 'Delivery', 'Customer visit']);
  });
});

describe('the edit form', () => {
  it('sends only what changed, and empty text as null', () => {
    const t = trip('2025-03-10T06:00:00Z', 10, { purpose: 'Bank', note: 'x' });
    const values = { ...formValuesOf(t), type: 'private' as const, note: '  ', project: ' P1 ' };
    expect(changedFields(t, values)).toEqual({ type: 'private', note: null, project: 'P1' });
    expect(changedFields(t, formValuesOf(t))).toEqual({});
  });
});

describe('drivers', () => {
  const drivers = [
    { id: 'u2', firstName: 'Anna', lastName: 'Ek' },
    { id: 'me', firstName: 'Erik', lastName: 'Lind' },
    { id: 'u3', firstName: '', lastName: '' },
  ];
  it("offers the unit's drivers in the server's order, named First Last", () => {
    expect(driverChoices(drivers)).toEqual([
      { value: 'u2', label: 'Anna Ek' },
      { value: 'me', label: 'Erik Lind' },
      { value: 'u3', label: 'u3' },
    ]);
  });
  it("keeps the trip's own driver when the list does not hold them, once", () => {
    const removed = trip('2025-03-10T06:00:00Z', 10, { driverId: 'gone', driverName: 'Former Driver' });
    expect(driverChoices(drivers, removed).at(-1)).toEqual({ value: 'gone', label: 'Former Driver' });
    const listed = trip('2025-03-10T06:00:00Z', 10, { driverId: 'me', driverName: 'Erik Lind' });
    expect(driverChoices(drivers, listed)).toHaveLength(3);
    expect(driverChoices([], trip('2025-03-10T06:00:00Z', 10))).toEqual([]);
  });
});

describe('links', () => {
  it('reads the unit of a QR check-in code', () => {
    expect(imeiOfCheckInCode('356938031000007-AbCdEfGhIjKlMnOpQrStUv')).toBe('356938031000007');
    expect(imeiOfCheckInCode('35693803100000-AbCdEfGhIjKlMnOpQrStUv')).toBeNull();
    expect(imeiOfCheckInCode('nonsense')).toBeNull();
  });

  it('sends a logged-out driver back to the check-in page after the login, and nowhere else', () => {
    expect(returnPathOf({ returnTo: '/user/check-in/356938031000007-AbCdEfGhIjKlMnOpQrStUv' })).toBe('/user/check-in/356938031000007-AbCdEfGhIjKlMnOpQrStUv');
    expect(returnPathOf({ returnTo: '/user/create-triplog?imei=1' })).toBe('/user/create-triplog?imei=1');
    expect(returnPathOf({ returnTo: '//evil.example/user/check-in/x' })).toBeNull();
    expect(returnPathOf({ returnTo: 'https://evil.example/' })).toBeNull();
    expect(returnPathOf({ returnTo: '/user/register' })).toBeNull();
    expect(returnPathOf({ returnTo: '/nowhere' })).toBeNull();
    expect(returnPathOf(null)).toBeNull();
    expect(returnPathOf({ notice: 'registered' })).toBeNull();
  });
});

describe('texts', () => {
  it('has a text for every message key of the trip log, in every language (test/i18n checks the languages)', () => {
    expect(Object.values(tripMessageKeys).filter((key) => !isMessageKey(key))).toEqual([]);
  });
});

describe('landingUnit', () => {
  const units = [
    { imei: '1', name: 'Ambulance', lastSeen: null },
    { imei: '2', name: 'Bus', lastSeen: '2026-11-28T10:00:00.000Z' },
    { imei: '3', name: 'Car', lastSeen: '2026-11-29T07:00:00.000Z' },
  ];

  it('opens on the unit chosen last, while the user still sees it', () => {
    expect(landingUnit(units, '2')?.imei).toBe('2');
    expect(landingUnit(units, 'gone')?.imei).toBe('3');
  });

  it('else on the unit heard from most recently, not the first alphabetically, which may never have reported', () => {
    expect(landingUnit(units, null)?.imei).toBe('3');
    expect(landingUnit([units[0] as (typeof units)[number]], null)?.imei).toBe('1');
    expect(landingUnit([], null)).toBeNull();
  });
});
