/**
 * Country names and calling codes of the registration forms (spec sections 2 and 9). The wizard's
 * three countries and their dial codes are shared/schemas/registration.ts's; the classic form's
 * phone picker lists every country with its calling code, Sweden, Norway and the United Kingdom
 * first. Calling codes come from the phone model (shared/validators/phone.ts) and country names from the browser's
 * Intl.DisplayNames in the page language, so neither is a hand-kept list.
 */
import { phoneCountries } from '../../../../shared/validators/phone';
import type { Language } from '../../../../shared/schemas/common';
import { registrationCountries } from '../../../../shared/schemas/registration';

/** Listed first in the phone pickers (spec section 9): the wizard's countries. */
export const PREFERRED_COUNTRIES: readonly string[] = registrationCountries.map((c) => c.code);

/** BCP 47 tag for Intl: Norwegian is written as bokmål, which every browser names countries in. */
function intlLocale(lang: Language): string {
  return lang === 'no' ? 'nb' : lang;
}

const namers = new Map<Language, Intl.DisplayNames>();

export function countryName(code: string, lang: Language): string {
  let namer = namers.get(lang);
  if (!namer) {
    namer = new Intl.DisplayNames([intlLocale(lang)], { type: 'region', fallback: 'code' });
    namers.set(lang, namer);
  }
  try {
    return namer.of(code) ?? code;
  } catch {
    return code;
  }
}

export interface PhoneCountryOption {
  /** ISO 3166 code: several countries share a calling code (+1, +44, +47...), so the code is the value. */
  value: string;
  label: string;
  dialCode: string;
}

/** Every country with its calling code: Sweden, Norway and the United Kingdom first, the rest by name. */
export function phoneCountryOptions(lang: Language): PhoneCountryOption[] {
  const all = phoneCountries().map(({ country, callingCode }) => ({
    value: country,
    dialCode: callingCode,
    label: `${countryName(country, lang)} (+${callingCode})`,
  }));
  const collator = new Intl.Collator(intlLocale(lang));
  const preferred = PREFERRED_COUNTRIES.flatMap((code) => all.filter((o) => o.value === code));
  const rest = all.filter((o) => !PREFERRED_COUNTRIES.includes(o.value)).sort((a, b) => collator.compare(a.label, b.label));
  return [...preferred, ...rest];
}
