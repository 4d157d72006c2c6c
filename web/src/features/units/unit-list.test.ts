import { describe, expect, it } from 'vitest';
import { modules } from '../../../../shared/i18n/index';
import { formatSort, parseSort, serverSort, vehicleTypeKey } from './unit-list';

describe('vehicleTypeKey', () => {
  it('has a label in every language for each known type, none for an unknown one', () => {
    for (const type of ['car', 'Lorry', 'wheel-loader', 'bluetooth', 'excavator']) {
      const key = vehicleTypeKey(type);
      expect(key, type).not.toBeNull();
      for (const lang of ['en', 'sv', 'no'] as const) expect(modules.units[lang][key as keyof typeof modules.units.en]).toBeTruthy();
    }
    expect(modules.units.sv[vehicleTypeKey('lorry') as 'UnitsTypeLorry']).toBe('Lastbil');
    expect(vehicleTypeKey('snowmobile')).toBeNull();
  });
});

describe('sort in the address', () => {
  it('round-trips a column and direction, with no parameter for the default', () => {
    expect(parseSort('lastSeen.desc')).toEqual([{ id: 'lastSeen', desc: true }]);
    expect(formatSort([{ id: 'lastSeen', desc: true }])).toBe('lastSeen.desc');
    expect(formatSort([{ id: 'imei', desc: false }])).toBe('imei.asc');
    expect(formatSort([{ id: 'name', desc: false }])).toBeNull();
    expect(formatSort([{ id: 'name', desc: true }])).toBe('name.desc');
  });

  it('falls back to by-name for anything else', () => {
    for (const param of [null, '', 'state.asc', 'name', 'name.up', 'constructor.asc']) expect(parseSort(param)).toEqual([{ id: 'name', desc: false }]);
  });

  it('asks the server for name or IMEI order, by name for a column it cannot order by', () => {
    expect(serverSort([{ id: 'imei', desc: true }])).toBe('imei.desc');
    expect(serverSort([{ id: 'name', desc: false }])).toBe('name.asc');
    expect(serverSort([{ id: 'lastSeen', desc: true }])).toBe('name.asc');
    expect(serverSort([])).toBe('name.asc');
  });
});
