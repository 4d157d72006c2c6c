import { describe, expect, it } from 'vitest';
import type { Position } from '../../ingest/types';
import type { StoredServiceInterval, UnitItem } from '../../domain/unit/schema';
import { serviceAlarms, serviceStatus } from './service-intervals';
import { serviceStage } from './service-stage';

const NOON = Date.parse('2026-06-15T10:00:00Z');
const km = (n: number) => ({ odometerM: n * 1000, engineSeconds: undefined, ts: NOON });
const oil: StoredServiceInterval = { name: 'Oil', kind: 'distance', every: 10_000, lastService: 20_000, order: 0 };

describe('serviceStatus', () => {
  it('is ok, due soon in the last 10 % and overdue from the due value on (distance and hours)', () => {
    expect(serviceStatus(oil, km(28_999))).toMatchObject({ state: 'ok', dueAt: 30_000, remaining: 1001 });
    expect(serviceStatus(oil, km(29_000))).toMatchObject({ state: 'dueSoon', remaining: 1000 });
    expect(serviceStatus(oil, km(30_000))).toMatchObject({ state: 'overdue', remaining: 0 });
    expect(serviceStatus(oil, km(31_500))).toMatchObject({ state: 'overdue', remaining: -1500 });
    const hours = { ...oil, kind: 'hours' as const, every: 500, lastService: 1000 };
    expect(serviceStatus(hours, { odometerM: undefined, engineSeconds: 1460 * 3600, ts: NOON })).toMatchObject({ state: 'dueSoon', remaining: 40, current: 1460 });
  });

  it('is ok without a counter', () => {
    expect(serviceStatus(oil, { odometerM: undefined, engineSeconds: undefined, ts: NOON })).toEqual({ state: 'ok', dueAt: 30_000, remaining: null, current: null });
  });

  it('counts date intervals in months, due soon in the last 14 days', () => {
    const inspection = { ...oil, kind: 'date' as const, every: 12, lastService: '2025-07-01' };
    expect(serviceStatus(inspection, km(0))).toMatchObject({ state: 'ok', dueAt: '2026-07-01', remaining: 16, current: '2026-06-15' });
    expect(serviceStatus({ ...inspection, lastService: '2025-06-29' }, km(0))).toMatchObject({ state: 'dueSoon', remaining: 14 });
    expect(serviceStatus({ ...inspection, lastService: '2025-06-15' }, km(0))).toMatchObject({ state: 'overdue', remaining: 0 });
  });
});

describe('serviceAlarms', () => {
  it('alarms once per interval, cycle and state', () => {
    const intervals = { a: oil };
    const first = serviceAlarms(intervals, {}, km(29_500));
    expect(first.alarms.map((a) => a.status.state)).toEqual(['dueSoon']);
    expect(serviceAlarms(intervals, first.marks, km(29_600)).alarms).toEqual([]);
    const overdue = serviceAlarms(intervals, first.marks, km(30_100));
    expect(overdue.alarms.map((a) => a.status.state)).toEqual(['overdue']);
    expect(serviceAlarms(intervals, overdue.marks, km(31_000)).alarms).toEqual([]);
    // Marked serviced: a new cycle, alarmed afresh when due again.
    const serviced = { a: { ...oil, lastService: 30_100 } };
    expect(serviceAlarms(serviced, overdue.marks, km(30_200)).alarms).toEqual([]);
    expect(serviceAlarms(serviced, overdue.marks, km(39_500)).alarms.map((a) => a.status.state)).toEqual(['dueSoon']);
  });

  it('alarms straight to overdue once, and forgets removed intervals', () => {
    const result = serviceAlarms({ a: oil }, {}, km(35_000));
    expect(result.alarms.map((a) => a.status.state)).toEqual(['overdue']);
    expect(serviceAlarms({}, result.marks, km(35_000)).marks).toEqual({});
  });
});

describe('the ingest stage', () => {
  const position = (ts: number, odometerKm: number) => ({ ts, lat: 59.3, lon: 18.0, odometer: odometerKm * 1000 }) as Position;
  const unit = { imei: '350000000000001', accountId: 'a', serviceIntervals: { a: oil } } as unknown as UnitItem;
  const after = (p: Position) => ({ ts: p.ts, lat: p.lat, lon: p.lon, odometer: p.odometer, engineSeconds: undefined, lastSeen: p.ts });

  it('raises one serviceDue alarm through the event effect, and none again from its own state', () => {
    const p = position(NOON, 29_500);
    const run = serviceStage.run({ unit, previous: undefined, before: undefined, after: after(p), positions: [p], late: [], receivedAt: NOON });
    expect(run.effects).toEqual([
      expect.objectContaining({ kind: 'event', id: `event:serviceDue:${NOON}:a.dueSoon`, payload: expect.objectContaining({ type: 'serviceDue', alarm: true, details: expect.objectContaining({ service: 'Oil', state: 'dueSoon' }) }) }),
    ]);
    const p2 = position(NOON + 60_000, 29_600);
    const again = serviceStage.run({ unit, previous: serviceStage.parse(run.state), before: undefined, after: after(p2), positions: [p2], late: [], receivedAt: NOON });
    expect(again.effects).toEqual([]);
  });

  it('reads hours and distance intervals at the counters corrected by the latest readings', () => {
    const hours: StoredServiceInterval = { name: 'Hydraulics', kind: 'hours', every: 100, lastService: 532, order: 0 };
    const corrected = {
      ...unit,
      serviceIntervals: { h: hours, d: { ...oil, lastService: 6_000 } },
      hoursCorrection: { atTs: NOON - 1, valueHours: 620, counterS: 500 * 3600 },
      odometerCorrection: { atTs: NOON - 1, valueKm: 15_000, counterM: 14_000_000, source: 'tracker' as const },
    } as UnitItem;
    // The tracker: 502.5 h and 14,012.3 km, read as 622.5 h (due at 632: soon) and 15,012.3 km (due at 16,000: soon).
    const p = position(NOON, 14_012.3);
    const run = serviceStage.run({ unit: corrected, previous: undefined, before: undefined, after: { ...after(p), engineSeconds: 502.5 * 3600 }, positions: [p], late: [], receivedAt: NOON });
    expect(run.effects).toEqual([
      expect.objectContaining({ payload: expect.objectContaining({ details: expect.objectContaining({ service: 'Hydraulics', state: 'dueSoon', remaining: 9.5 }) }) }),
      expect.objectContaining({ payload: expect.objectContaining({ details: expect.objectContaining({ service: 'Oil', state: 'dueSoon', remaining: 987.7 }) }) }),
    ]);
    // Without the readings, the raw 502.5 h and 14,012.3 km are not due yet.
    const raw = serviceStage.run({ unit: { ...corrected, hoursCorrection: undefined, odometerCorrection: undefined }, previous: undefined, before: undefined, after: { ...after(p), engineSeconds: 502.5 * 3600 }, positions: [p], late: [], receivedAt: NOON });
    expect(raw.effects).toEqual([]);
  });
  it('keeps no state for a unit without intervals', () => {
    const p = position(NOON, 1);
    expect(serviceStage.run({ unit: { ...unit, serviceIntervals: undefined }, previous: { a: 'x' }, before: undefined, after: after(p), positions: [p], late: [], receivedAt: NOON }).state).toBeUndefined();
  });
});
