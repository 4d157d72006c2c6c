import { describe, expect, it } from 'vitest';
import { cellText, cellValue, columnHeading, reportLanguage } from './cells';

describe('report cells', () => {
  it("reads a row's value as a cell, anything else as empty", () => {
    const row = { km: 12.345, name: 'Van', ok: true, nested: { a: 1 }, missing: undefined };
    expect(cellValue(row, 'km')).toBe(12.345);
    expect(cellValue(row, 'ok')).toBe(true);
    expect(cellValue(row, 'nested')).toBeNull();
    expect(cellValue(row, 'missing')).toBeNull();
    expect(cellText(row, { key: 'km', format: 'km' }, 'sv')).toBe('12,3');
  });
  it('writes the unit in brackets after the label, when there is one', () => {
    expect(columnHeading({ label: 'Distance', unit: 'km' })).toBe('Distance (km)');
    expect(columnHeading({ label: 'Trips', unit: null })).toBe('Trips');
  });
  it("takes the report's language, English for anything else", () => {
    expect(reportLanguage({ lang: 'no' })).toBe('no');
    expect(reportLanguage({ lang: 'de' })).toBe('en');
  });
});
