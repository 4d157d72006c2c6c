/**
 * The phone rules of spec section 5, as written (docs/decisions/0007-registration.md). They are plain string rules, so
 * this module has no dependency: libphonenumber-js's validity check would contradict them (it
 * accepts 8-digit Norwegian numbers the wizard must refuse), and its metadata would weigh on every
 * page that imports the registration schema. The server uses it only to store numbers as E.164.
 */

/** Spaces, hyphens, dots and brackets a phone input may add for display. */
const FORMATTING = /[\s\-.()]/g;

export const digitsOfPhone = (value: string): string => value.replace(FORMATTING, '');
export const digitsOfDialCode = (value: string): string => value.trim().replace(/^\+/, '');

/** Dial codes whose national part must not repeat a dial code or trunk prefix (spec: 46, 47, 07). */
const GUARDED_DIAL_CODES = new Set(['46', '47', '07']);
const REPEATED_PREFIX = /^(46|47|07)/;
/** The national part must have more than this many digits (as the spec writes it). */
export const WIZARD_PHONE_MIN_NATIONAL_EXCLUSIVE = 8;
/** E.164 allows 15 digits; a little room for the formatting the classic fields do not strip. */
export const PHONE_MAX_LENGTH = 20;

export type WizardPhoneError = 'PhoneNumCannotBeEmpty' | 'MakeSurePhoneNunIsCorrect' | 'Min8CharacterPhoneNumber';

/**
 * The wizard's phone field holds the whole number, starting with the dial code of the chosen
 * country (`+46 70 123 45 67`, `46701234567`). It must be more than the dial code alone; for
 * dial codes 46, 47 and 07 the rest must not begin with 46, 47 or 07 (a doubled prefix); and the
 * national part must have more than 8 digits.
 */
export function wizardPhoneError(phone: string, dialCode: string): WizardPhoneError | null {
  const dial = digitsOfDialCode(dialCode);
  const digits = digitsOfPhone(phone).replace(/^\+/, '');
  if (digits === '' || digits === dial) return 'PhoneNumCannotBeEmpty';
  if (!/^\d+$/.test(digits) || !/^\d+$/.test(dial) || !digits.startsWith(dial) || digits.length > PHONE_MAX_LENGTH) {
    return 'MakeSurePhoneNunIsCorrect';
  }
  const national = digits.slice(dial.length);
  if (GUARDED_DIAL_CODES.has(dial) && REPEATED_PREFIX.test(national)) return 'MakeSurePhoneNunIsCorrect';
  if (national.length <= WIZARD_PHONE_MIN_NATIONAL_EXCLUSIVE) return 'Min8CharacterPhoneNumber';
  return null;
}

/** The national part of a wizard phone number that passed `wizardPhoneError`. */
export function wizardNationalNumber(phone: string, dialCode: string): string {
  return digitsOfPhone(phone).replace(/^\+/, '').slice(digitsOfDialCode(dialCode).length);
}

export type CompanyPhoneError = 'SpecifyCompanyPhone' | 'CompanyPhoneInvalidStart' | 'PhoneDigitsOnly' | 'TooLong';

/** The classic form's company phone: digits only, not starting with 07, 46, 47 or a plus. */
export function companyPhoneError(phone: string): CompanyPhoneError | null {
  const value = phone.trim();
  if (!value) return 'SpecifyCompanyPhone';
  if (/^(\+|07|46|47)/.test(value)) return 'CompanyPhoneInvalidStart';
  if (!/^\d+$/.test(value)) return 'PhoneDigitsOnly';
  if (value.length > PHONE_MAX_LENGTH) return 'TooLong';
  return null;
}

export const GENERAL_PHONE_MIN_DIGITS = 8;
const SWEDEN_DIAL_CODE = '46';

export type GeneralPhoneError = 'SpecifyTelephone' | 'PhoneDigitsOnly' | 'PhoneMin8Digits' | 'SwedishPhoneInvalidStart' | 'TooLong';

/**
 * A phone number next to a country picker (the classic form's phone): the national number,
 * digits only, at least 8; a Swedish one (dial code 46) cannot start with 46 or 0, since the
 * picker already supplies the country code.
 */
export function generalPhoneError(phone: string, dialCode: string): GeneralPhoneError | null {
  const value = phone.trim();
  if (!value) return 'SpecifyTelephone';
  if (!/^\d+$/.test(value)) return 'PhoneDigitsOnly';
  if (value.length < GENERAL_PHONE_MIN_DIGITS) return 'PhoneMin8Digits';
  if (value.length > PHONE_MAX_LENGTH) return 'TooLong';
  if (digitsOfDialCode(dialCode) === SWEDEN_DIAL_CODE && /^(46|0)/.test(value)) return 'SwedishPhoneInvalidStart';
  return null;
}
