import { describe, expect, it } from 'vitest';
import type { RealtimeUnit, UnitState } from '../../../../shared/schemas/tracking';
import { isMoving } from '../../../../shared/unit-status';
import { markerOf, sourceDiff, unitFeature, type UnitFeature } from './unit-features';

const state: UnitState = {
  ts: '2025-01-01T10:00:00Z',
  lat: 59.33,
  lon: 18.06,
  speed: 45,
  heading: 270,
  alt: null,
  ignition: true,
  movement: true,
  extVolts: null,
  batVolts: null,
  din: {},
  dout: {},
  odometer: null,
  engineSeconds: null,
  lastSeen: '2025-01-01T10:00:00Z',
};
const unit: RealtimeUnit = {
  imei: '356938031000008',
  name: 'Service van 1',
  registrationNumber: 'ABC123',
  vehicleType: 'lorry',
  color: '#e03131',
  symbol: 'truck',
  driver: null,
  departments: [],
  doutLabels: {},
  operatingMode: null,
  state,
};

/** A minute after the unit was last heard from. */
const NOW = Date.parse(state.lastSeen) + 60_000;

describe('unit features', () => {
  it('places a unit at its position (longitude first) with name, colour, symbol, status and heading', () => {
    expect(unitFeature(unit, NOW)).toEqual({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [18.06, 59.33] },
      properties: { imei: unit.imei, name: 'Service van 1', color: '#e03131', symbol: 'truck', status: 'moving', heading: 270 },
    });
  });

  it('gives a unit the status it has at the time asked for', () => {
    expect(unitFeature({ ...unit, state: { ...state, speed: 0, ignition: true } }, NOW)?.properties.status).toBe('idling');
    expect(unitFeature({ ...unit, state: { ...state, speed: 0, ignition: false } }, NOW)?.properties.status).toBe('parked');
    expect(unitFeature(unit, NOW + 24 * 3_600_000)?.properties.status).toBe('offline');
  });

  it('leaves out a unit that has no position yet', () => {
    expect(unitFeature({ ...unit, state: null }, NOW)).toBeNull();
  });

  it('calls a unit moving from its speed, or from its movement flag when the speed is unknown', () => {
    expect(isMoving({ speed: 2, movement: true })).toBe(false);
    expect(isMoving({ speed: 3, movement: false })).toBe(true);
    expect(isMoving({ speed: null, movement: true })).toBe(true);
    expect(isMoving({ speed: null, movement: null })).toBe(false);
  });

  it('falls back on the vehicle type for a colour or symbol the map cannot draw', () => {
    expect(markerOf({ color: 'red', symbol: 'rocket', vehicleType: 'lorry' })).toEqual({ color: '#e8590c', symbol: 'truck' });
    expect(markerOf({ color: '#123456', symbol: 'boat', vehicleType: 'car' })).toEqual({ color: '#123456', symbol: 'boat' });
  });
});

describe('sourceDiff', () => {
  const at = (imei: string, lon: number, lat: number, speed = 45) => unitFeature({ ...unit, imei, state: { ...state, lon, lat, speed } }, NOW) as UnitFeature;

  it('adds units that got a position, removes those gone, and moves the rest', () => {
    const diff = sourceDiff([
      { before: undefined, after: at('1', 18, 59) },
      { before: at('2', 18, 59), after: null },
      { before: at('3', 18, 59), after: at('3', 18.1, 59) },
    ]);
    expect(diff).toEqual({
      add: [at('1', 18, 59)],
      remove: ['2'],
      update: [{ id: '3', newGeometry: { type: 'Point', coordinates: [18.1, 59] } }],
    });
  });

  it('sends only the properties that changed, and nothing for a unit that did not change', () => {
    expect(sourceDiff([{ before: at('3', 18, 59), after: at('3', 18, 59, 0) }])).toEqual({
      update: [
        {
          id: '3',
          addOrUpdateProperties: [
            { key: 'status', value: 'idling' },
          ],
        },
      ],
    });
    expect(sourceDiff([{ before: at('3', 18, 59), after: at('3', 18, 59) }])).toEqual({});
    expect(sourceDiff([{ before: undefined, after: null }])).toEqual({});
  });
});
