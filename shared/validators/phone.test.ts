import { describe, expect, it } from 'vitest';
import { companyPhoneError, generalPhoneError, wizardNationalNumber, wizardPhoneError } from './phone';

describe('wizardPhoneError (the whole number, starting with the dial code)', () => {
  it.each([
    ['46701234567', '46'],
    ['+46 70 123 45 67', '46'],
    ['+46-70-123 45 67', '+46'],
    ['47912345678', '47'],
    ['447911123456', '44'],
  ])('accepts %s with dial code %s', (phone, dial) => {
    expect(wizardPhoneError(phone, dial)).toBeNull();
  });

  it('must be more than the dial code alone', () => {
    expect(wizardPhoneError('', '46')).toBe('PhoneNumCannotBeEmpty');
    expect(wizardPhoneError('46', '46')).toBe('PhoneNumCannotBeEmpty');
    expect(wizardPhoneError('+46', '46')).toBe('PhoneNumCannotBeEmpty');
    expect(wizardPhoneError(' +46 ', '+46')).toBe('PhoneNumCannotBeEmpty');
  });

  it.each([
    ['4646701234567', '46'],
    ['4647701234567', '46'],
    ['46070123456', '46'],
    ['4746912345678', '47'],
    ['0707012345678', '07'],
  ])('for dial codes 46, 47 and 07 refuses %s: the national part starts with 46, 47 or 07', (phone, dial) => {
    expect(wizardPhoneError(phone, dial)).toBe('MakeSurePhoneNunIsCorrect');
  });

  it('allows such a start after other dial codes', () => {
    expect(wizardPhoneError('44467012345', '44')).toBeNull();
  });

  it('shows Min8CharacterPhoneNumber while the national part has 1 to 8 digits', () => {
    expect(wizardPhoneError('467', '46')).toBe('Min8CharacterPhoneNumber');
    expect(wizardPhoneError('4670123456', '46')).toBe('Min8CharacterPhoneNumber'); // 8 digits
    expect(wizardPhoneError('47912345678'.slice(0, 10), '47')).toBe('Min8CharacterPhoneNumber'); // a Norwegian 8-digit number
    expect(wizardPhoneError('46701234567', '46')).toBeNull(); // 9 digits
  });

  it('refuses letters, another country and absurd lengths', () => {
    expect(wizardPhoneError('4670123456a', '46')).toBe('MakeSurePhoneNunIsCorrect');
    expect(wizardPhoneError('47912345678', '46')).toBe('MakeSurePhoneNunIsCorrect');
    expect(wizardPhoneError(`46${'7'.repeat(30)}`, '46')).toBe('MakeSurePhoneNunIsCorrect');
  });

  it('gives the national part', () => {
    expect(wizardNationalNumber('+46 70 123 45 67', '+46')).toBe('701234567');
  });
});

describe('companyPhoneError (classic form)', () => {
  it('accepts digits that do not start with 07, 46, 47 or +', () => {
    expect(companyPhoneError('0812345678')).toBeNull();
    expect(companyPhoneError('44207946000')).toBeNull();
  });
  it('requires a number', () => {
    expect(companyPhoneError('')).toBe('SpecifyCompanyPhone');
  });
  it.each(['0701234567', '46812345678', '4722334455', '+46812345678'])('refuses the start of %s', (phone) => {
    expect(companyPhoneError(phone)).toBe('CompanyPhoneInvalidStart');
  });
  it('refuses anything but digits', () => {
    expect(companyPhoneError('08-123 456')).toBe('PhoneDigitsOnly');
    expect(companyPhoneError('1'.repeat(21))).toBe('TooLong');
  });
});

describe('generalPhoneError (national number beside a country picker)', () => {
  it('accepts at least 8 digits', () => {
    expect(generalPhoneError('701234567', '46')).toBeNull();
    expect(generalPhoneError('91234567', '47')).toBeNull();
  });
  it('requires a number', () => {
    expect(generalPhoneError(' ', '46')).toBe('SpecifyTelephone');
  });
  it('refuses anything but digits, and fewer than 8', () => {
    expect(generalPhoneError('70 123 45 67', '46')).toBe('PhoneDigitsOnly');
    expect(generalPhoneError('+46701234567', '46')).toBe('PhoneDigitsOnly');
    expect(generalPhoneError('7012345', '46')).toBe('PhoneMin8Digits');
  });
  it('refuses a Swedish number starting with 46 or 0, but not a Norwegian one', () => {
    expect(generalPhoneError('46701234567', '46')).toBe('SwedishPhoneInvalidStart');
    expect(generalPhoneError('0701234567', '+46')).toBe('SwedishPhoneInvalidStart');
    expect(generalPhoneError('0701234567', '47')).toBeNull();
  });
});
