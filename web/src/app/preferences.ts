/**
 * Language and subsite kept in local storage (spec section 3: keys `language` and `subsite`).
 */
import { brandById, isBrandId, type BrandId } from '../../../shared/brands';
import { LANGUAGES } from '../../../shared/i18n/languages';
import type { Language } from '../../../shared/schemas/common';

export const LANGUAGE_KEY = 'language';
export const SUBSITE_KEY = 'subsite';
export const DEFAULT_LANGUAGE: Language = 'en';

/** localStorage that never throws (blocked storage in some privacy modes). */
export const storage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // Storage unavailable: the preference lasts for this page only.
    }
  },
  remove(key: string): void {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // Nothing stored, nothing to remove.
    }
  },
};

export function parseLanguage(value: string | null | undefined): Language | null {
  return (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : null;
}

/**
 * The portal language for the browser's preferred languages, in their order: Swedish for `sv`,
 * Norwegian for `no`, `nb` and `nn` (bokmål and nynorsk readers both read our bokmål texts), English
 * for `en`; the first of those wins, and English when none is listed.
 */
export function languageFromBrowser(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
    if (primary === 'sv') return 'sv';
    if (primary === 'no' || primary === 'nb' || primary === 'nn') return 'no';
    if (primary === 'en') return 'en';
  }
  return DEFAULT_LANGUAGE;
}

/** The language picked in the picker, or on a first visit the browser's preference. */
export function readStoredLanguage(preferred: readonly string[] = browserLanguages()): Language {
  return parseLanguage(storage.get(LANGUAGE_KEY)) ?? languageFromBrowser(preferred);
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

export function storeLanguage(lang: Language): void {
  storage.set(LANGUAGE_KEY, lang);
}

function parseSubsite(value: string | null | undefined): BrandId | null {
  if (value === null || value === undefined || !/^\d$/.test(value.trim())) return null;
  const n = Number(value);
  return isBrandId(n) ? n : null;
}

/**
 * Which brand this page is. The root element's `data-subsite` (written per brand at build time and
 * served by host name) wins; without it (the plain index.html, e.g. the embedded runtime) a
 * `?subsite=N` query parameter, then the stored subsite, then brand 0.
 */
export function resolveSubsite(rootAttribute: string | null | undefined, search: string, stored: string | null): BrandId {
  return (
    parseSubsite(rootAttribute) ??
    parseSubsite(new URLSearchParams(search).get('subsite')) ??
    parseSubsite(stored) ??
    brandById(undefined).id
  );
}

/** Resolves the subsite of this load and stores it (spec: "the subsite from the root element is stored on each load"). */
export function readSubsite(root: HTMLElement): BrandId {
  const id = resolveSubsite(root.dataset['subsite'], window.location.search, storage.get(SUBSITE_KEY));
  storage.set(SUBSITE_KEY, String(id));
  return id;
}
