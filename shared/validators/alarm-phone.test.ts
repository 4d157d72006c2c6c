import { describe, expect, it } from 'vitest';
import { alarmNationalNumber, alarmPhoneDisplay, alarmPhoneE164, alarmPhoneError } from './alarm-phone';

describe('alarm receiver phone (spec section 5)', () => {
  it('removes the dial code, then a leading 0 or 46, and wants at least 8 digits', () => {
    expect(alarmNationalNumber('+46 70-123 45 67', '46')).toBe('701234567');
    expect(alarmNationalNumber('0701234567', '46')).toBe('701234567');
    expect(alarmNationalNumber('46 0701234567', '46')).toBe('701234567');
    expect(alarmPhoneError('0701234567', '46')).toBeNull();
    expect(alarmPhoneError('07012345', '46')).toBe('PhoneNumberMustBeAtLeast8Digits');
    expect(alarmPhoneError('4646123456', '46')).toBe('PhoneNumberMustBeAtLeast8Digits');
    expect(alarmPhoneError('41234567', '47')).toBeNull();
    expect(alarmPhoneError('4123456', '47')).toBe('PhoneNumberMustBeAtLeast8Digits');
    expect(alarmPhoneError('0701a34567', '46')).toBe('MakeSurePhoneNunIsCorrect');
    expect(alarmPhoneError('7012345678901234', '46')).toBe('MakeSurePhoneNunIsCorrect');
  });

  it('stores E.164 and shows +dial-number', () => {
    expect(alarmPhoneE164('070 123 45 67', '+46')).toBe('+46701234567');
    expect(alarmPhoneDisplay('46', '701234567')).toBe('+46-701234567');
  });
});
