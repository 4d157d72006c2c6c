import { describe, expect, it } from 'vitest';
import { normalizePersonalNumber, personalNumberError } from './personal-number';

describe('personalNumberError', () => {
  it.each(['198507099805', '19850709-9805', '20000101-0016', ' 198507099813 '])('accepts %s (12 digits, or 13 with a hyphen)', (pin) => {
    expect(personalNumberError(pin)).toBeNull();
  });

  it('asks for a number when there is none', () => {
    expect(personalNumberError('')).toBe('SpecifyPersonalNum');
    expect(personalNumberError('   ')).toBe('SpecifyPersonalNum');
  });

  it.each([
    ['8507099805', 'the short 10-digit form'],
    ['850709-9805', 'the short form with hyphen'],
    ['1985070998051', '13 digits'],
    ['19850709--9805', 'two hyphens'],
    ['198507-099805', 'a hyphen in the wrong place'],
  ])('refuses %s (%s) as the wrong length', (pin) => {
    expect(personalNumberError(pin)).toBe('InvalidPersonalNumLength');
  });

  it.each([
    ['19850709-9806', 'a wrong check digit'],
    // The next four have a correct check digit: only the date is wrong.
    ['199002300029', 'the 30th of February'],
    ['19900230-0029', 'the 30th of February with a hyphen'],
    ['19901301-0021', 'month 13'],
    ['19850769-9802', 'a coordination number (day + 60)'],
    ['850709+9805', 'the + separator'],
    ['1985O7099805', 'a letter'],
  ])('refuses %s (%s) as invalid', (pin) => {
    expect(personalNumberError(pin)).toBe('InvalidPersonalNum');
  });
});

describe('normalizePersonalNumber', () => {
  it('stores 12 digits without the hyphen', () => {
    expect(normalizePersonalNumber(' 19850709-9805')).toBe('198507099805');
    expect(normalizePersonalNumber('198507099805')).toBe('198507099805');
  });
});
