/**
 * The phone rule as the shared schemas see it, without its weight. The model itself
 * (shared/validators/phone.ts) is built on libphonenumber-js and its metadata (about 34 kB gzipped);
 * the route manifest, which every page of the web app loads, imports the schemas, so the schemas
 * reach the model through this slot instead of importing it. The server and each form that checks
 * a phone import shared/validators/phone.ts, which fills the slot; a schema that checks a phone
 * before that fails loudly (an Error, never a silently accepted number).
 * docs/decisions/0030-one-phone-rule.md.
 */
import type { Language } from '../schemas/common';

/** Longer than any number with its formatting: refused before parsing. */
export const PHONE_INPUT_MAX = 32;

/** The one message key for a number that is not a valid mobile of its country, everywhere. */
export const INVALID_PHONE = 'MakeSurePhoneNunIsCorrect';
/** The one message key for a number of kind `any` (fixed lines too) that is not valid for its country. */
export const INVALID_ANY_PHONE = 'EnterValidPhoneNumber';

/**
 * What a number must be: `mobile` (a person's number: alarm SMS, profile, registration contact)
 * is a valid mobile number of its country; `any` (a company switchboard, a theft report's owner)
 * is a possible number of its country, fixed lines included.
 */
export type PhoneKind = 'mobile' | 'any';

/**
 * The country a number typed without a country code belongs to: an ISO 3166 code ('SE') or a
 * calling code ('46' or '+46', as the alarm receiver and registration payloads carry it).
 */
export type PhoneRegion = string;

export interface ParsedPhone {
  /** For storage and for sending: '+46701234567'. */
  e164: string;
  /** The number's calling code without '+': '46'. */
  callingCode: string;
  /** Its national significant number: '701234567'. */
  nationalNumber: string;
  /** The number's ISO country, when its calling code names one ('SE'); undefined for a non-geographic number. */
  country: string | undefined;
}

export interface PhoneModel {
  /** The number typed as the user knows it (national with or without its 0, or international), or null when it is not one of `kind`. */
  parse(input: string, region: PhoneRegion, kind?: PhoneKind): ParsedPhone | null;
  /** The display form of a stored number (E.164 or an older format): national when in `viewer`'s country, else international; unreadable text as it is. */
  format(stored: string, viewer: PhoneRegion): string;
}

let installed: PhoneModel | null = null;

export function installPhoneModel(model: PhoneModel): void {
  installed = model;
}

export function phoneModel(): PhoneModel {
  if (!installed) throw new Error('The phone model is not loaded: import shared/validators/phone.ts where phones are checked.');
  return installed;
}

/** The key of a non-empty number that is not one of `kind` in `region` (INVALID_PHONE, or INVALID_ANY_PHONE for `any`), else null (an empty field is each form's own rule). */
export function phoneError(input: string, region: PhoneRegion, kind: PhoneKind = 'mobile'): typeof INVALID_PHONE | typeof INVALID_ANY_PHONE | null {
  if (input.trim() === '') return null;
  if (phoneModel().parse(input, region, kind)) return null;
  return kind === 'any' ? INVALID_ANY_PHONE : INVALID_PHONE;
}

/** The E.164 form of a number that passed `phoneError`. */
export function phoneE164(input: string, region: PhoneRegion, kind: PhoneKind = 'mobile'): string {
  const parsed = phoneModel().parse(input, region, kind);
  if (!parsed) throw new Error('phoneE164 of a number that did not pass phoneError');
  return parsed.e164;
}

/** The country a phone form starts with when nothing else names one: Norway for Norwegian, else Sweden (spec section 9). */
export function defaultPhoneCountry(lang: Language | undefined): 'SE' | 'NO' {
  return lang === 'no' ? 'NO' : 'SE';
}
