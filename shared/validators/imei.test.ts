import { describe, expect, it } from 'vitest';
import { imeiFrom, isValidImei, luhnCheckDigit } from './imei';

describe('IMEI', () => {
  it('accepts a real IMEI with its Luhn digit', () => {
    expect(isValidImei('490154203237518')).toBe(true);
    expect(luhnCheckDigit('49015420323751')).toBe(8);
  });

  it('refuses a wrong check digit, wrong length and non-digits', () => {
    expect(isValidImei('490154203237519')).toBe(false);
    expect(isValidImei('49015420323751')).toBe(false);
    expect(isValidImei('4901542032375180')).toBe(false);
    expect(isValidImei('49015420323751a')).toBe(false);
  });

  it('builds valid IMEIs', () => {
    expect(isValidImei(imeiFrom('35693803564380'))).toBe(true);
    expect(() => imeiFrom('123')).toThrow();
  });
});
