import { describe, expect, it } from 'vitest';
import { searchUnits } from './unit-search';

const units = [
  { imei: '356938031000008', name: 'Service van 1', registrationNumber: 'ABC123' },
  { imei: '356938031000016', name: 'Service van 2', registrationNumber: 'DEF456' },
  { imei: '356938031000024', name: 'Grävmaskin Östra', registrationNumber: null },
  { imei: '490154203237518', name: 'Delivery lorry', registrationNumber: 'GHI 789' },
];
const names = (query: string) => searchUnits(units, query).map((u) => u.name);

describe('searchUnits', () => {
  it('matches any part of the name, whatever the case', () => {
    expect(names('VAN')).toEqual(['Service van 1', 'Service van 2']);
    expect(names('lorry')).toEqual(['Delivery lorry']);
  });

  it('matches registration numbers with or without spaces and hyphens', () => {
    expect(names('abc 123')).toEqual(['Service van 1']);
    expect(names('def-456')).toEqual(['Service van 2']);
    expect(names('ghi789')).toEqual(['Delivery lorry']);
  });

  it('matches any part of the IMEI, also typed in groups', () => {
    expect(names('4901542')).toEqual(['Delivery lorry']);
    expect(names('1000016')).toEqual(['Service van 2']);
    expect(names('490154 203237')).toEqual(['Delivery lorry']);
  });

  it('ignores accents and extra spaces, and looks for the words together', () => {
    expect(names('  gravmaskin   ostra ')).toEqual(['Grävmaskin Östra']);
    expect(names('van 2')).toEqual(['Service van 2']);
    expect(names('service lorry')).toEqual([]);
  });

  it('keeps everything for an empty query', () => {
    expect(names('   ')).toHaveLength(4);
  });
});
