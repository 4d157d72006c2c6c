import { describe, expect, it } from 'vitest';
import {
  countryOfCallingCode,
  defaultPhoneCountry,
  formatPhone,
  INVALID_PHONE,
  parsePhone,
  phoneE164,
  phoneError,
  storedPhoneE164,
} from './phone';

describe('parsePhone: a mobile number as the user knows it', () => {
  it.each([
    ['0701234567', 'SE'],
    ['701234567', 'SE'],
    ['070 123 45 67', 'SE'],
    ['070-123 45 67', 'SE'],
    ['+46 70 123 45 67', 'SE'],
    ['0046701234567', 'SE'],
    ['46701234567', 'SE'],
    ['+46-701234567', 'SE'],
    ['0701234567', '46'],
    ['0701234567', '+46'],
    ['0046 70 123 45 67', '46'],
  ])('reads %s in %s as +46701234567', (input, region) => {
    expect(parsePhone(input, region)?.e164).toBe('+46701234567');
  });

  it.each([
    ['41234567', 'NO'],
    ['412 34 567', 'NO'],
    ['+47 412 34 567', 'NO'],
    ['004741234567', 'NO'],
    ['41234567', '47'],
  ])('reads the Norwegian %s in %s as +4741234567', (input, region) => {
    expect(parsePhone(input, region)?.e164).toBe('+4741234567');
  });

  it('gives the calling code, national number and country', () => {
    expect(parsePhone('0701234567', 'SE')).toEqual({ e164: '+46701234567', callingCode: '46', nationalNumber: '701234567', country: 'SE' });
  });

  it('reads a number written with its country code in that country, whatever was chosen', () => {
    expect(parsePhone('+4741234567', 'SE')?.country).toBe('NO');
  });

  it.each([
    ['081234567', 'SE', 'a Stockholm fixed line'],
    ['0812345678', 'SE', 'a longer Stockholm fixed line'],
    ['22123456', 'NO', 'an Oslo fixed line'],
    ['0701234567', 'NO', 'a Swedish national number read as Norwegian'],
    ['070123456', 'SE', 'a digit short'],
    ['07012345678', 'SE', 'a digit too many'],
    ['hello', 'SE', 'text'],
    ['070 123 45 6x', 'SE', 'a letter'],
    ['+', 'SE', 'a plus alone'],
    ['', 'SE', 'nothing'],
    ['0701234567', 'XX', 'an unknown country'],
    ['9'.repeat(40), 'SE', 'an absurd length'],
  ])('refuses %s in %s (%s)', (input, region) => {
    expect(parsePhone(input, region)).toBeNull();
    if (input.trim()) expect(phoneError(input, region)).toBe(INVALID_PHONE);
  });

  it('accepts a fixed line where any number will do', () => {
    expect(parsePhone('08-123 45 67', 'SE', 'any')?.e164).toBe('+4681234567');
    expect(parsePhone('22 12 34 56', 'NO', 'any')?.e164).toBe('+4722123456');
    expect(parsePhone('081', 'SE', 'any')).toBeNull();
  });
});

describe('phoneError and phoneE164', () => {
  it('leave an empty field to the form and give E.164 of a valid number', () => {
    expect(phoneError('  ', 'SE')).toBeNull();
    expect(phoneError('0701234567', 'SE')).toBeNull();
    expect(phoneE164('070 123 45 67', 'SE')).toBe('+46701234567');
    expect(() => phoneE164('081234567', 'SE')).toThrow();
  });
});

describe('formatPhone: the display form', () => {
  it('shows a number of the viewer’s country in national format', () => {
    expect(formatPhone('+46701234567', 'SE')).toBe('070-123 45 67');
    expect(formatPhone('+46701234567', '46')).toBe('070-123 45 67');
    expect(formatPhone('+4741234567', 'NO')).toBe('41 23 45 67');
    expect(formatPhone('+4791234567', 'NO')).toBe('91 23 45 67');
  });

  it('shows another country’s number in international format', () => {
    expect(formatPhone('+4741234567', 'SE')).toBe('+47 41 23 45 67');
    expect(formatPhone('+46701234567', 'NO')).toBe('+46 70 123 45 67');
  });

  it('reads the older stored formats', () => {
    for (const old of ['+46-701234567', '0701234567', '46701234567', '+46701234567']) expect(formatPhone(old, 'SE')).toBe('070-123 45 67');
  });

  it('shows unreadable text as it is', () => {
    expect(formatPhone('call reception', 'SE')).toBe('call reception');
  });
});

describe('storedPhoneE164', () => {
  it('normalises older formats in the given country and keeps E.164', () => {
    expect(storedPhoneE164('+46-701234567', '46')).toBe('+46701234567');
    expect(storedPhoneE164('0701234567', '46')).toBe('+46701234567');
    expect(storedPhoneE164('46701234567', 'SE')).toBe('+46701234567');
    expect(storedPhoneE164('+4741234567', 'SE')).toBe('+4741234567');
    expect(storedPhoneE164(null, 'SE')).toBeNull();
    expect(storedPhoneE164('n/a', 'SE')).toBeNull();
  });
});

describe('countries', () => {
  it('names the main country of a calling code', () => {
    expect(countryOfCallingCode('46')).toBe('SE');
    expect(countryOfCallingCode('+47')).toBe('NO');
    expect(countryOfCallingCode('44')).toBe('GB');
    expect(countryOfCallingCode('1')).toBe('US');
    expect(countryOfCallingCode('999')).toBeUndefined();
  });

  it('starts a form in Norway for Norwegian, else Sweden', () => {
    expect(defaultPhoneCountry('no')).toBe('NO');
    expect(defaultPhoneCountry('sv')).toBe('SE');
    expect(defaultPhoneCountry('en')).toBe('SE');
  });
});
