import { describe, expect, it } from 'vitest';
import type { LivePositionMessage } from '../../../../shared/schemas/live';
import type { RealtimeUnit, UnitState } from '../../../../shared/schemas/tracking';
import { createUnitStore } from './unit-store';

const state = (ts: string, lat = 59.33): UnitState => ({
  ts,
  lat,
  lon: 18.06,
  speed: 30,
  heading: 90,
  alt: null,
  ignition: true,
  movement: true,
  extVolts: 12.5,
  batVolts: 4.1,
  din: {},
  dout: {},
  odometer: null,
  engineSeconds: null,
  lastSeen: ts,
});

const unit = (imei: string, s: UnitState | null = null): RealtimeUnit => ({
  imei,
  name: `Unit ${imei}`,
  registrationNumber: null,
  vehicleType: 'car',
  color: '#1c7ed6',
  symbol: 'car',
  driver: null,
  departments: [],
  doutLabels: {},
  operatingMode: null,
  state: s,
});

const position = (imei: string, s: UnitState): LivePositionMessage => ({ type: 'position', imei, ...s });

describe('createUnitStore', () => {
  it('moves a unit on a newer live position and tells which one changed', () => {
    const store = createUnitStore();
    const changes: Array<string | null> = [];
    store.subscribe((imei) => changes.push(imei));
    store.replaceAll([unit('1', state('2025-01-01T10:00:00Z')), unit('2')]);
    expect(store.applyPosition(position('1', state('2025-01-01T10:00:05Z', 59.4)))).toBe(true);
    expect(store.get('1')?.state).toEqual(state('2025-01-01T10:00:05Z', 59.4));
    // A unit without a position gets its first one.
    expect(store.applyPosition(position('2', state('2025-01-01T09:00:00Z')))).toBe(true);
    expect(changes).toEqual([null, '1', '2']);
    expect(store.all().map((u) => u.state?.ts)).toEqual(['2025-01-01T10:00:05Z', '2025-01-01T09:00:00Z']);
  });

  it('ignores a position that is not newer, and one of a unit it does not have', () => {
    const store = createUnitStore();
    store.replaceAll([unit('1', state('2025-01-01T10:00:00Z'))]);
    const before = store.all();
    expect(store.applyPosition(position('1', state('2025-01-01T10:00:00Z', 1)))).toBe(false);
    expect(store.applyPosition(position('1', state('2025-01-01T09:59:59Z', 1)))).toBe(false);
    expect(store.applyPosition(position('9', state('2025-01-01T11:00:00Z')))).toBe(false);
    expect(store.get('1')?.state?.lat).toBe(59.33);
    // Nothing changed, so readers see the same array.
    expect(store.all()).toBe(before);
    // A live position changes the units' states, not the roster.
    const roster = store.roster();
    store.applyPosition(position('1', state('2025-01-01T10:00:09Z')));
    expect(store.roster()).toBe(roster);
    expect(store.all()).not.toBe(before);
  });

  it('keeps a live state newer than a fresh answer, takes everything else from the answer', () => {
    const store = createUnitStore();
    store.replaceAll([unit('1', state('2025-01-01T10:00:00Z')), unit('2', state('2025-01-01T10:00:00Z'))]);
    store.applyPosition(position('1', state('2025-01-01T10:05:00Z', 60)));
    const roster = store.roster();
    store.replaceAll([
      { ...unit('1', state('2025-01-01T10:01:00Z')), name: 'Renamed' },
      unit('2', state('2025-01-01T10:02:00Z', 61)),
      unit('3'),
    ]);
    expect(store.roster()).not.toBe(roster);
    expect(store.roster().map((u) => u.imei)).toEqual(['1', '2', '3']);
    expect(store.get('1')).toMatchObject({ name: 'Renamed', state: { ts: '2025-01-01T10:05:00Z', lat: 60 } });
    expect(store.get('2')?.state?.lat).toBe(61);
    expect(store.get('3')?.state).toBeNull();
    // A unit the answer no longer has is gone.
    store.replaceAll([unit('3')]);
    expect(store.all().map((u) => u.imei)).toEqual(['3']);
  });

  it('removes a unit whose access was revoked at once, from the units and the roster, and tells its listeners', () => {
    const store = createUnitStore();
    store.replaceAll([unit('1'), unit('2')]);
    const heard: (string | null)[] = [];
    store.subscribe((imei) => heard.push(imei));
    expect(store.remove('2')).toBe(true);
    expect(store.all().map((u) => u.imei)).toEqual(['1']);
    expect(store.roster().map((u) => u.imei)).toEqual(['1']);
    expect(store.get('2')).toBeUndefined();
    expect(heard).toEqual([null]);
    expect(store.remove('2')).toBe(false);
    expect(store.applyPosition({ type: 'position', imei: '2', ...state('2025-01-01T00:00:00.000Z') } as LivePositionMessage)).toBe(false);
  });

  it('adds a reload page by page, each unit told by IMEI, keeps newer live states and drops at the end what no page had', () => {
    const store = createUnitStore();
    store.replaceAll([unit('1', state('2025-01-01T10:00:00Z')), unit('2'), unit('9')]);
    store.applyPosition(position('1', state('2025-01-01T10:05:00Z', 60)));
    const heard: (string | null)[] = [];
    store.subscribe((imei) => heard.push(imei));
    store.beginLoad();
    store.addPage([unit('1', state('2025-01-01T10:01:00Z')), unit('2', state('2025-01-01T10:02:00Z'))]);
    // The first page is there before the next comes; the unit not yet reloaded stays meanwhile.
    expect(store.roster().map((u) => u.imei)).toEqual(['1', '2', '9']);
    expect(store.get('1')?.state).toMatchObject({ ts: '2025-01-01T10:05:00Z', lat: 60 });
    expect(store.get('2')?.state?.ts).toBe('2025-01-01T10:02:00Z');
    store.addPage([unit('3')]);
    store.endLoad();
    expect(store.roster().map((u) => u.imei)).toEqual(['1', '2', '3']);
    expect(store.get('9')).toBeUndefined();
    expect(heard).toEqual(['1', '2', '3', '9']);
  });
});
