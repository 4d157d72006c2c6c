import { describe, expect, it } from 'vitest';
import { createUnitIndex } from './unit-index';

const collator = new Intl.Collator('sv', { numeric: true, sensitivity: 'base' });
const unit = (imei: string, name: string, registrationNumber: string | null = null) => ({ imei, name, registrationNumber });

describe('createUnitIndex', () => {
  it('keeps the units in name order as pages arrive, ties by IMEI', () => {
    const index = createUnitIndex(collator.compare);
    const first = [unit('3', 'Unit 10'), unit('1', 'Unit 2')];
    expect(index.sync(first)).toBe(true);
    expect(index.sorted()).toEqual(['1', '3']);
    const second = [...first, unit('2', 'Unit 3'), unit('4', 'Åkeri'), unit('0', 'Unit 2')];
    expect(index.sync(second)).toBe(true);
    expect(index.sorted()).toEqual(['0', '1', '2', '3', '4']);
    // The same roster again: nothing to do.
    expect(index.sync(second)).toBe(false);
  });

  it('moves a renamed unit, drops a removed one and finds by the new texts', () => {
    const index = createUnitIndex(collator.compare);
    index.sync([unit('1', 'Alpha', 'ABC 123'), unit('2', 'Beta'), unit('3', 'Gamma')]);
    expect(index.search('abc-123')).toEqual(['1']);
    index.sync([unit('1', 'Alpha', 'XYZ 999'), unit('3', 'Aardvark')]);
    expect(index.sorted()).toEqual(['3', '1']);
    expect(index.search('abc123')).toEqual([]);
    expect(index.search('xyz9')).toEqual(['1']);
  });

  it('notices a unit gone or renamed among the earlier ones, also when new ones follow them', () => {
    const index = createUnitIndex(collator.compare);
    const [alpha, beta, gamma] = [unit('1', 'Alpha'), unit('2', 'Beta'), unit('3', 'Gamma')];
    index.sync([alpha, beta, gamma]);
    // Beta gone and Delta in its place: as many units as before.
    index.sync([alpha, unit('4', 'Delta'), gamma]);
    expect(index.sorted()).toEqual(['1', '4', '3']);
    expect(index.search('beta')).toEqual([]);
    // Alpha renamed (a new object in its place) and Epsilon after the others.
    const later = [unit('1', 'Zulu'), unit('4', 'Delta'), gamma, unit('5', 'Epsilon')];
    index.sync(later);
    expect(index.sorted()).toEqual(['4', '5', '3', '1']);
    expect(index.search('alpha')).toEqual([]);
    // Only new units after the same objects: they are merged in, nothing is dropped.
    index.sync([...later, unit('6', 'Beta'), unit('0', 'Alpha')]);
    expect(index.sorted()).toEqual(['0', '6', '4', '5', '3', '1']);
    expect(index.search('a')).toEqual(['0', '6', '4', '3']);
  });

  it('searches names without case or accents, registration numbers and IMEIs, in name order', () => {
    const index = createUnitIndex(collator.compare);
    index.sync([unit('356938031000016', 'Service van 2', 'DEF456'), unit('356938031000008', 'Service van 1', 'ABC123'), unit('490154203237518', 'Grävmaskin Östra')]);
    expect(index.search('VAN')).toEqual(['356938031000008', '356938031000016']);
    expect(index.search('ostra')).toEqual(['490154203237518']);
    expect(index.search('def 456')).toEqual(['356938031000016']);
    expect(index.search('4901542')).toEqual(['490154203237518']);
    expect(index.search('  ')).toEqual(index.sorted());
  });

  it('sorts 50,000 units arriving in pages of 5,000 and searches them', () => {
    const index = createUnitIndex(collator.compare);
    const units = Array.from({ length: 50_000 }, (_, i) => unit(String(100_000 + i), `Unit ${String((i * 7919) % 50_000).padStart(5, '0')}`, `REG${i}`));
    for (let i = 0; i < units.length; i += 5000) index.sync(units.slice(0, i + 5000));
    expect(index.sorted()).toHaveLength(50_000);
    expect(index.search('unit 0001')).toHaveLength(10);
  });
});
