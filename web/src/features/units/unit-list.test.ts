import { describe, expect, it } from 'vitest';
import { modules } from '../../../../shared/i18n/index';
import type { UnitListItem } from '../../../../shared/schemas/units';
import { absoluteTime, formatSort, matchesUnit, parseSort, relativeTime, vehicleTypeKey } from './unit-list';

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

describe('relativeTime', () => {
  const now = Date.parse('2025-03-10T12:00:00Z');
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();
  it.each([
    ['en-GB', 10, 'now'],
    ['en-GB', 5 * 60, '5 minutes ago'],
    ['en-GB', 3 * 3600 + 59 * 60, '3 hours ago'],
    ['en-GB', 26 * 3600, 'yesterday'],
    ['en-GB', 3 * 86_400, '3 days ago'],
    ['en-GB', 65 * 86_400, '2 months ago'],
    ['en-GB', 800 * 86_400, '2 years ago'],
    ['sv-SE', 5 * 60, 'för 5 minuter sedan'],
    ['nb-NO', 5 * 60, 'for 5 minutter siden'],
    ['sv-SE', 10, 'nu'],
    // Ahead of the browser's clock: a skew, not the future.
    ['en-GB', -90, 'now'],
  ])('%s, %i s ago: %s', (locale, seconds, text) => {
    expect(relativeTime(ago(seconds), now, locale)).toBe(text);
  });
});

describe('absoluteTime', () => {
  it('shows the instant in the given time zone and language', () => {
    expect(absoluteTime('2025-03-10T08:05:00Z', 'en-GB', 'Europe/Stockholm')).toBe('10 Mar 2025, 09:05');
    expect(absoluteTime('2025-07-10T08:05:00Z', 'sv-SE', 'Europe/Stockholm')).toBe('10 juli 2025 10:05');
    expect(absoluteTime('2025-03-10T08:05:00Z', 'en-GB', 'Europe/London')).toBe('10 Mar 2025, 08:05');
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
