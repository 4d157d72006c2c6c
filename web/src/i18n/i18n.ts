/**
 * The browser's i18next instance. Only the language in use is loaded: each language file is its
 * own chunk, so adding texts for the whole portal does not grow the login page's JavaScript.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Messages } from '../../../shared/i18n/en';
import type { Language } from '../../../shared/schemas/common';
import { browserFeatures, loadFeatureTexts, type BrowserFeature } from './feature-messages';

const loaders: Readonly<Record<Language, () => Promise<Messages>>> = {
  en: () => import('../../../shared/i18n/en').then((m) => m.en),
  sv: () => import('../../../shared/i18n/sv').then((m) => m.sv),
  no: () => import('../../../shared/i18n/no').then((m) => m.no),
};

/** The languages the picker offers, each named in its own language. */
export const languageOptions: ReadonlyArray<{ value: Language; label: string }> = [
  { value: 'en', label: 'English' },
  { value: 'sv', label: 'Svenska' },
  { value: 'no', label: 'Norsk' },
];

export const i18n = i18next.createInstance();

/** The `lang` attribute for a portal language: 'no' is written as Norwegian bokmål, which screen readers know best. */
export function htmlLang(lang: Language): string {
  return lang === 'no' ? 'nb' : lang;
}

/**
 * The BCP 47 tag for Intl formatting of a portal language: British English (day before month,
 * 24-hour clock, as our users expect), Swedish and Norwegian bokmål as written in their countries.
 */
export function intlLocale(lang: Language = currentLanguage()): string {
  return lang === 'no' ? 'nb-NO' : lang === 'sv' ? 'sv-SE' : 'en-GB';
}

function applyDocumentLanguage(lang: Language): void {
  document.documentElement.lang = htmlLang(lang);
}

export async function initI18n(lang: Language): Promise<void> {
  const messages = await loaders[lang]();
  await i18n.use(initReactI18next).init({
    lng: lang,
    resources: { [lang]: { translation: messages } },
    // Keys are flat and some are sentences from the API ('Unauthenticated.'), so no separators.
    keySeparator: false,
    nsSeparator: false,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  applyDocumentLanguage(lang);
}

/** Features whose texts were loaded; a language switch loads them in the new language too. */
const loadedFeatures = new Set<BrowserFeature>();
const featureLoads = new Map<string, Promise<void>>();

function ensureFeature(feature: BrowserFeature, lang: Language): Promise<void> {
  const id = `${feature}:${lang}`;
  let pending = featureLoads.get(id);
  if (!pending) {
    pending = loadFeatureTexts(feature, lang).then((texts) => {
      i18n.addResourceBundle(lang, 'translation', texts, true, false);
    });
    // A failed chunk load (network) may be retried by the next visit of the page.
    pending.catch(() => featureLoads.delete(id));
    featureLoads.set(id, pending);
  }
  return pending;
}

/** Loads a feature's texts in the current language; lazy pages await it before they render. */
export async function loadFeatureMessages(feature: BrowserFeature): Promise<void> {
  loadedFeatures.add(feature);
  await ensureFeature(feature, currentLanguage());
}

/**
 * Makes sure every key of a server's answer has its text before the answer is shown: a key that
 * belongs to a feature this page has not loaded (a 423 TrackerIsLocked on the trip log, whose text
 * lives with the unit lock) loads the texts of every feature, once, in the current language.
 * Only an error answer with an unknown key pays for it.
 */
export async function ensureMessageKeys(keys: readonly string[]): Promise<void> {
  if (keys.every((key) => key === '' || i18n.exists(key))) return;
  const lang = currentLanguage();
  for (const feature of browserFeatures) loadedFeatures.add(feature);
  await Promise.all(browserFeatures.map((feature) => ensureFeature(feature, lang))).catch(() => undefined);
}

export async function loadLanguage(lang: Language): Promise<void> {
  if (!i18n.hasResourceBundle(lang, 'translation')) {
    i18n.addResourceBundle(lang, 'translation', await loaders[lang](), true, false);
  }
  await Promise.all([...loadedFeatures].map((feature) => ensureFeature(feature, lang)));
  await i18n.changeLanguage(lang);
  applyDocumentLanguage(lang);
}

export function currentLanguage(): Language {
  const lang = i18n.language;
  return lang === 'sv' || lang === 'no' ? lang : 'en';
}

export function isKnownMessage(key: string): boolean {
  return key !== '' && i18n.exists(key);
}

/**
 * A message key from the API, translated. An unknown key never reaches the screen raw: it becomes
 * the generic SomethingWentWrong text (and a console warning so the missing key gets noticed).
 */
export function translateMessage(key: string, vars?: Record<string, string | number>): string {
  if (key && i18n.exists(key)) return i18n.t(key, vars ?? {});
  console.warn(`No translation for message key ${JSON.stringify(key)}`);
  return i18n.t('SomethingWentWrong');
}
