import { describe, expect, it } from 'vitest';
import type { Geofence } from '../../../../shared/schemas/geofences';
import { formFieldOf, formValuesOf, geofenceFormSchema, requestOf } from './geofence-form';
import { filterGeofences, geofenceCounts } from './geofence-list';

const g = (id: string, name: string, units: Array<[string, string]>): Geofence => ({
  id,
  name,
  lat: 59,
  lon: 18,
  radius: 500,
  imeis: units.map(([imei]) => imei),
  units: units.map(([imei, n]) => ({ imei, name: n })),
  alarm: true,
  active: true,
  theftMode: false,
  schedule: null,
});

const list = [g('1', 'Depå Söder', [['a', 'Volvo XC60']]), g('2', 'Home', [['a', 'Volvo XC60'], ['b', 'Service van']]), g('3', 'Harbour', [])];

describe('filterGeofences', () => {
  it('finds by name and by unit name, every word, without case or accents', () => {
    expect(filterGeofences(list, '').map((x) => x.id)).toEqual(['1', '2', '3']);
    expect(filterGeofences(list, 'depa').map((x) => x.id)).toEqual(['1']);
    expect(filterGeofences(list, 'volvo').map((x) => x.id)).toEqual(['1', '2']);
    expect(filterGeofences(list, 'home van').map((x) => x.id)).toEqual(['2']);
    expect(filterGeofences(list, 'nothing')).toEqual([]);
  });
});

describe('geofenceCounts', () => {
  it('counts geofences per unit, leaving out the one being edited', () => {
    expect(geofenceCounts(list)).toEqual(new Map([['a', 2], ['b', 1]]));
    expect(geofenceCounts(list, '2')).toEqual(new Map([['a', 1]]));
  });
});

describe('the geofence form', () => {
  it('puts the server fields on the form fields', () => {
    expect(formFieldOf('lat')).toBe('center');
    expect(formFieldOf('schedule.off.2.days.0')).toBe('windows.2.days');
    expect(formFieldOf('schedule.off.0.to')).toBe('windows.0.to');
    expect(formFieldOf('radius')).toBe('radius');
    expect(formFieldOf('body')).toBeNull();
  });

  it('turns the form into the request and back', () => {
    const saved = g('1', 'Depot', [['a', 'Car']]);
    const values = formValuesOf({ ...saved, schedule: { off: [{ days: [6], from: '18:00', to: '06:00' }] } });
    expect(requestOf(values)).toEqual({ name: 'Depot', lat: 59, lon: 18, radius: 500, imeis: ['a'], alarm: true, active: true, theftMode: false, schedule: { off: [{ days: [6], from: '18:00', to: '06:00' }] } });
    expect(requestOf({ ...values, windows: [] }).schedule).toBeNull();
  });

  it('refuses what the server refuses, with the same keys', () => {
    const keysOf = (values: object) => geofenceFormSchema.safeParse({ ...formValuesOf(undefined), name: 'x', center: { lat: 59, lon: 18 }, ...values }).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(keysOf({})).toBeUndefined();
    expect(keysOf({ radius: 299 })).toEqual([['radius', 'RadiusLessThan300']]);
    expect(keysOf({ radius: 10000 })).toEqual([['radius', 'RadiusTooLarge']]);
    expect(keysOf({ center: null })).toEqual([['center', 'GeofenceInvalidPosition']]);
    expect(keysOf({ name: ' ' })).toEqual([['name', 'GeofenceNameRequired']]);
  });
});
