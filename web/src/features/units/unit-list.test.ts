import { describe, expect, it } from 'vitest';
import { modules } from '../../../../shared/i18n/index';
import type { UnitListItem } from '../../../../shared/schemas/units';
import { formatSort, matchesUnit, parseSort, vehicleTypeKey } from './unit-list';

const unit = (over: Partial<UnitListItem> = {}): UnitListItem => ({
  imei: '356938031000003',
  name: 'Service van 1',
  registrationNumber: 'ABC123',
  vehicleType: 'car',
  color: '#1c7ed6',
  symbol: 'car',
  driver: 'Kim Berg',
  departments: ['North', 'Rörläggning'],
  lastSeen: null,
  ...over,
});

describe('matchesUnit', () => {
  const u = unit();
  it.each([
    ['', true],
    ['  ', true],
    ['service', true],
    ['VAN 1', true],
    ['abc123', true],
    ['ABC 123', true],
    ['1000003', true],
    ['kim', true],
    ['kim north', true],
    ['rörl', true],
    ['RÖRL', true],
    ['south', false],
    ['kim south', false],
    ['car', false],
  ])('%j matches: %s', (query, expected) => {
    expect(matchesUnit(u, query, 'sv-SE')).toBe(expected);
  });

  it('does not trip over what a unit lacks', () => {
    expect(matchesUnit(unit({ registrationNumber: null, driver: null, departments: [] }), 'kim', 'en-GB')).toBe(false);
    expect(matchesUnit(unit({ registrationNumber: null, driver: null, departments: [] }), 'service', 'en-GB')).toBe(true);
  });
});

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
});
