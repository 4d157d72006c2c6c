/**
 * The alarm receiver's phone rule of spec section 5, as written: after removing
 * the dial code and then a leading 0 or 46, at least 8 digits remain. The number is stored as E.164
 * (`+<dial code><national number>`) and shown as `+<dial code>-<national number>`.
 */
import { digitsOfDialCode, digitsOfPhone } from './phone';

export const ALARM_PHONE_MIN_DIGITS = 8;
/** E.164: at most 15 digits with the dial code. */
const E164_MAX_DIGITS = 15;

export type AlarmPhoneError = 'PhoneNumberMustBeAtLeast8Digits' | 'MakeSurePhoneNunIsCorrect';

/** The national number: formatting removed, then the dial code (when the input repeats it), then a leading 0 or 46. */
export function alarmNationalNumber(phone: string, dialCode: string): string {
  const dial = digitsOfDialCode(dialCode);
  let digits = digitsOfPhone(phone).replace(/^\+/, '');
  if (dial && digits.startsWith(dial)) digits = digits.slice(dial.length);
  return digits.replace(/^(0|46)/, '');
}

/** The problem with an alarm receiver's phone number, or null. An empty phone is no number (checked elsewhere). */
export function alarmPhoneError(phone: string, dialCode: string): AlarmPhoneError | null {
  const dial = digitsOfDialCode(dialCode);
  if (!/^\d{1,4}$/.test(dial)) return 'MakeSurePhoneNunIsCorrect';
  const raw = digitsOfPhone(phone).replace(/^\+/, '');
  if (!/^\d*$/.test(raw)) return 'MakeSurePhoneNunIsCorrect';
  const national = alarmNationalNumber(phone, dialCode);
  if (national.length < ALARM_PHONE_MIN_DIGITS) return 'PhoneNumberMustBeAtLeast8Digits';
  if (dial.length + national.length > E164_MAX_DIGITS) return 'MakeSurePhoneNunIsCorrect';
  return null;
}

/** E.164 of a number that passed `alarmPhoneError`. */
export function alarmPhoneE164(phone: string, dialCode: string): string {
  return `+${digitsOfDialCode(dialCode)}${alarmNationalNumber(phone, dialCode)}`;
}

/** The display form of spec section 2: `+46-701234567`. */
export function alarmPhoneDisplay(dialCode: string, national: string): string {
  return `+${digitsOfDialCode(dialCode)}-${national}`;
}
