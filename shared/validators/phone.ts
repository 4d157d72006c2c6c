/**
 * The one phone model (docs/decisions/0030-one-phone-rule.md), built on libphonenumber-js with its
 * `mobile` metadata: it tells a mobile number from a fixed line, at about two thirds of the weight
 * of the full metadata. A number is typed as the user knows it: national, with or without the
 * trunk 0 ('0701234567', '70 123 45 67'), or international ('+46 70 123 45 67', '0046701234567',
 * '46701234567'); the chosen country reads the national forms. It is stored as E.164 and shown in
 * national format (international when it is another country's number).
 *
 * Importing this module fills the slot the shared schemas check phones through
 * (shared/validators/phone-rule.ts): the server imports it once for every handler; the web only
 * on the pages with a phone field or list, so the login page and most others never load it.
 */
import {
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
  type PhoneNumber,
} from 'libphonenumber-js/mobile';
// The same metadata the mobile build reads: imported for its calling code table, not loaded twice.
import metadata from 'libphonenumber-js/metadata.mobile.json';
import { installPhoneModel, PHONE_INPUT_MAX, type ParsedPhone, type PhoneKind, type PhoneModel, type PhoneRegion } from './phone-rule';

export { defaultPhoneCountry, INVALID_ANY_PHONE, INVALID_PHONE, PHONE_INPUT_MAX, phoneE164, phoneError, type ParsedPhone, type PhoneKind, type PhoneRegion } from './phone-rule';

const countries = new Set<string>(getCountries());
export const isPhoneCountry = (value: string): value is CountryCode => countries.has(value);

/** Every ISO country the model knows, with its calling code. */
export function phoneCountries(): { country: CountryCode; callingCode: string }[] {
  return getCountries().map((country) => ({ country, callingCode: getCountryCallingCode(country) }));
}

type RegionOptions = { defaultCountry: CountryCode } | { defaultCallingCode: string } | undefined;

function regionOptions(region: PhoneRegion): RegionOptions {
  const value = region.trim().toUpperCase();
  if (isPhoneCountry(value)) return { defaultCountry: value };
  const digits = value.replace(/^\+/, '');
  if (!/^\d{1,4}$/.test(digits)) return undefined;
  // A dial code stands for its main country, whose international prefix ('00' in Sweden) is then
  // understood too: '0046 70…' with dial code 46.
  const main = countryOfCallingCode(digits);
  return main ? { defaultCountry: main } : { defaultCallingCode: digits };
}

function read(input: string, region: PhoneRegion): PhoneNumber | undefined {
  const text = input.trim();
  // Digits and what people write between them; letters (vanity numbers) are not accepted.
  if (text === '' || text.length > PHONE_INPUT_MAX || !/^[+\d][\d\s\-.()/]*$/.test(text)) return undefined;
  const options = regionOptions(region);
  try {
    return options ? parsePhoneNumberFromString(text, options) : parsePhoneNumberFromString(text);
  } catch {
    // It throws, rather than answering undefined, for a calling code it does not know.
    return undefined;
  }
}

function parse(input: string, region: PhoneRegion, kind: PhoneKind = 'mobile'): ParsedPhone | null {
  const number = read(input, region);
  // With the mobile metadata, isValid() is "a valid mobile (or fixed-line-or-mobile) number".
  if (!number || !(kind === 'mobile' ? number.isValid() : number.isPossible())) return null;
  return { e164: number.number, callingCode: number.countryCallingCode, nationalNumber: number.nationalNumber, country: number.country };
}

function callingCodeOf(region: PhoneRegion): string | undefined {
  const options = regionOptions(region);
  if (!options) return undefined;
  return 'defaultCountry' in options ? getCountryCallingCode(options.defaultCountry) : options.defaultCallingCode;
}

function format(stored: string, viewer: PhoneRegion): string {
  // Older items hold '+46-701234567', '0701234567' or '46701234567': read like typed input.
  const number = read(stored, viewer);
  if (!number?.isPossible()) return stored;
  return number.countryCallingCode === callingCodeOf(viewer) ? number.formatNational() : number.formatInternational();
}

const model: PhoneModel = { parse, format };
installPhoneModel(model);

export const parsePhone = parse;
export const formatPhone = format;

/**
 * A stored number as a phone form starts with it: its own country (else `fallback`, the country
 * the form would otherwise start with) and the number in that country's display form.
 */
export function phoneFormValues(stored: string | null | undefined, fallback: string): { phone: string; country: string } {
  const country = (stored && parse(stored, fallback, 'any')?.country) || fallback;
  return { phone: stored ? format(stored, country) : '', country };
}

/**
 * A stored number as E.164 for sending and for the views: E.164 stays, older formats are read in
 * `region` (the receiver's dial code, the account's country); null when it is no possible number.
 */
export function storedPhoneE164(stored: string | null | undefined, region: PhoneRegion): string | null {
  if (!stored) return null;
  return parse(stored, region, 'any')?.e164 ?? null;
}

/** The calling code of an ISO country ('SE' is '46'), or undefined for one the model does not know. */
export function getPhoneCallingCode(country: string): string | undefined {
  return isPhoneCountry(country) ? getCountryCallingCode(country) : undefined;
}

/** The country of a calling code: its main country ('47' is Norway, '1' the United States). */
export function countryOfCallingCode(callingCode: string): CountryCode | undefined {
  const main = metadata.country_calling_codes[callingCode.trim().replace(/^\+/, '')]?.[0];
  return main !== undefined && isPhoneCountry(main) ? main : undefined;
}
