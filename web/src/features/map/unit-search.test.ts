import { describe, expect, it } from 'vitest';
import { foldText, searchUnits } from './unit-search';

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

describe('foldText', () => {
  const full = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

  it('folds printable ASCII exactly as the full decomposition does', () => {
    const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
    for (const text of [ascii, `  ${ascii}  `, 'Unit   00042 ', 'ABC-123', '']) expect(foldText(text)).toBe(full(text));
  });

  it('drops accents and decomposes ligatures and white space beyond ASCII', () => {
    expect(foldText('Grävmaskin  ÖSTRA')).toBe('gravmaskin ostra');
    expect(foldText('\uFB01ske\tbåt')).toBe('fiske bat');
  });
});
