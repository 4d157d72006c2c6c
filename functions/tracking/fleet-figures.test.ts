import { describe, expect, it } from 'vitest';
import type { RealtimeUnit } from '../../shared/schemas/tracking';
import { daysCovered, fleetWindows, pastMonths, statusCounts, sumTrips, unattestedMonths, unitServiceState } from './fleet-figures';
import { serviceCycleOf } from '../units/editor/service-intervals';

const STHLM = 'Europe/Stockholm';
const at = (iso: string) => Date.parse(iso);

describe('fleetWindows', () => {
  it('starts today at local midnight and the week on Monday, in Stockholm winter time', () => {
    // Wednesday 2025-01-15, 00:30 in Stockholm is 23:30 UTC the day before.
    const w = fleetWindows(at('2025-01-14T23:30:00Z'), STHLM);
    expect(w.today).toBe('2025-01-15');
    expect(w.weekStart).toBe('2025-01-13');
    expect(w.todayFromMs).toBe(at('2025-01-14T23:00:00Z'));
    expect(w.weekFromMs).toBe(at('2025-01-12T23:00:00Z'));
    expect(w.toMs).toBe(at('2025-01-15T23:00:00Z'));
  });

  it('is still yesterday a minute before local midnight', () => {
    const w = fleetWindows(at('2025-01-14T22:59:00Z'), STHLM);
    expect(w.today).toBe('2025-01-14');
  });

  it('on a Monday the week is today; on a Sunday it began six days ago', () => {
    expect(fleetWindows(at('2025-01-13T10:00:00Z'), STHLM).weekStart).toBe('2025-01-13');
    expect(fleetWindows(at('2025-01-19T22:30:00Z'), STHLM).weekStart).toBe('2025-01-13');
    // 00:30 on Monday the 20th in Stockholm: a new week.
    expect(fleetWindows(at('2025-01-19T23:30:00Z'), STHLM).weekStart).toBe('2025-01-20');
  });

  it('spans the spring-forward night: the day of the change has 23 hours, the week 167', () => {
    // Sunday 2025-03-30: clocks go from 02:00 to 03:00 in Stockholm.
    const w = fleetWindows(at('2025-03-30T12:00:00Z'), STHLM);
    expect(w.today).toBe('2025-03-30');
    expect(w.toMs - w.todayFromMs).toBe(23 * 3_600_000);
    expect(w.weekStart).toBe('2025-03-24');
    expect(w.toMs - w.weekFromMs).toBe(167 * 3_600_000);
    expect(w.toMs).toBe(at('2025-03-30T22:00:00Z'));
  });

  it('spans the fall-back night: 25 hours', () => {
    const w = fleetWindows(at('2025-10-26T12:00:00Z'), STHLM);
    expect(w.toMs - w.todayFromMs).toBe(25 * 3_600_000);
    expect(w.todayFromMs).toBe(at('2025-10-25T22:00:00Z'));
  });

  it('follows the caller zone', () => {
    const w = fleetWindows(at('2025-01-15T03:00:00Z'), 'America/New_York');
    expect(w.today).toBe('2025-01-14');
    expect(w.todayFromMs).toBe(at('2025-01-14T05:00:00Z'));
  });
});

describe('sumTrips', () => {
  const q = (iso: string, imei: string, distanceM: number, trips: number) => ({ bucketMs: at(iso), imei, distanceM, trips });
  const entries = [
    q('2025-01-14T22:45:00Z', 'A', 5_000, 1), // 23:45 on the 14th in Stockholm
    q('2025-01-14T23:00:00Z', 'A', 12_345, 2), // 00:00 on the 15th
    q('2025-01-15T10:00:00Z', 'B', 1_000, 1),
    q('2025-01-15T10:00:00Z', 'C', 9_999, 3), // not visible
  ];
  it('counts the quarter hours inside the window of visible units only', () => {
    const w = fleetWindows(at('2025-01-15T12:00:00Z'), STHLM);
    expect(sumTrips(entries, new Set(['A', 'B']), w.todayFromMs, w.toMs)).toEqual({ distance: 13.345, trips: 3 });
    expect(sumTrips(entries, new Set(['A', 'B']), w.weekFromMs, w.toMs)).toEqual({ distance: 18.345, trips: 4 });
    expect(sumTrips(entries, new Set(), w.weekFromMs, w.toMs)).toEqual({ distance: 0, trips: 0 });
  });
});

describe('statusCounts', () => {
  const now = at('2025-01-15T12:00:00Z');
  const unit = (state: Partial<NonNullable<RealtimeUnit['state']>> | null): Pick<RealtimeUnit, 'state' | 'operatingMode'> => ({
    operatingMode: null,
    state: state
      ? ({ speed: null, movement: null, ignition: null, lastSeen: new Date(now - 60_000).toISOString(), ...state } as NonNullable<RealtimeUnit['state']>)
      : null,
  });
  it('puts every unit in one bucket', () => {
    const counts = statusCounts(
      [
        unit({ speed: 50 }),
        unit({ speed: 0, ignition: true }),
        unit({ speed: 0, ignition: false }),
        unit({ speed: 1 }),
        unit(null),
        // Silent for two hours while parked in real-time mode: offline.
        unit({ speed: 0, lastSeen: new Date(now - 2 * 3_600_000).toISOString() }),
      ],
      now,
    );
    expect(counts).toEqual({ moving: 1, idling: 1, parked: 2, offline: 2 });
  });
});

describe('unitServiceState', () => {
  const now = at('2025-06-01T10:00:00Z');
  const distance = { name: 'Oil', kind: 'distance' as const, every: 15_000, lastService: 30_000, order: 0 };
  it('reads distance intervals from the marks of their current cycle', () => {
    expect(unitServiceState({ a: distance }, { a: `${serviceCycleOf(distance)}|overdue` }, now)).toBe('overdue');
    expect(unitServiceState({ a: distance }, { a: `${serviceCycleOf(distance)}|dueSoon` }, now)).toBe('dueSoon');
    // A mark of the interval as it was before the last service counts no more.
    expect(unitServiceState({ a: distance }, { a: 'distance:15000:15000|overdue' }, now)).toBe('ok');
    expect(unitServiceState({ a: distance }, undefined, now)).toBe('ok');
  });
  it('reckons date intervals at now', () => {
    const date = { name: 'Inspection', kind: 'date' as const, every: 12, lastService: '2024-06-10', order: 0 };
    expect(unitServiceState({ d: date }, {}, now)).toBe('dueSoon');
    expect(unitServiceState({ d: date }, {}, at('2025-06-10T10:00:00Z'))).toBe('overdue');
    expect(unitServiceState({ d: date }, {}, at('2025-05-01T10:00:00Z'))).toBe('ok');
    expect(unitServiceState(undefined, undefined, now)).toBe('ok');
  });
});

describe('attestation months', () => {
  it('lists the months before the current one, newest first', () => {
    expect(pastMonths('2025-01-15', 3)).toEqual(['2024-12', '2024-11', '2024-10']);
  });
  it('covers days only without a gap', () => {
    expect(daysCovered('2025-01-03', '2025-01-28', [{ fromDay: '2025-01-01', toDay: '2025-01-31' }])).toBe(true);
    expect(daysCovered('2025-01-03', '2025-01-28', [{ fromDay: '2025-01-16', toDay: '2025-01-31' }, { fromDay: '2025-01-01', toDay: '2025-01-15' }])).toBe(true);
    expect(daysCovered('2025-01-03', '2025-01-28', [{ fromDay: '2025-01-01', toDay: '2025-01-14' }, { fromDay: '2025-01-16', toDay: '2025-01-31' }])).toBe(false);
    expect(daysCovered('2025-01-03', '2025-01-03', [])).toBe(false);
  });
  it('counts units with trips that no attestation in force covers', () => {
    const entries = [
      { month: '2024-12', imei: 'A', firstDay: '2024-12-02', lastDay: '2024-12-20' },
      { month: '2024-12', imei: 'B', firstDay: '2024-12-02', lastDay: '2024-12-20' },
      { month: '2024-12', imei: 'C', firstDay: '2024-12-02', lastDay: '2024-12-20' },
      { month: '2024-11', imei: 'A', firstDay: '2024-11-02', lastDay: '2024-11-20' },
      { month: '2024-11', imei: 'X', firstDay: '2024-11-02', lastDay: '2024-11-20' },
    ];
    const attestations = [
      { imei: 'A', fromDay: '2024-11-01', toDay: '2024-12-31', status: 'approved' },
      { imei: 'B', fromDay: '2024-12-01', toDay: '2024-12-31', status: 'unlocked' },
    ];
    expect(unattestedMonths(['2024-12', '2024-11', '2024-10'], entries, attestations, new Set(['A', 'B', 'C']))).toEqual([{ month: '2024-12', units: 2 }]);
  });
});
