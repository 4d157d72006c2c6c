/**
 * All texts in all languages, and a dependency-free translator the server can use for e-mails and
 * SMS. The browser loads one language at a time (web/src/i18n/i18n.ts imports the files directly so
 * each language is its own chunk); this module is for code that needs all of them.
 */
import type { Language } from '../schemas/common';
import { en, type MessageKey, type Messages } from './en';
import { no } from './no';
import { sv } from './sv';

export type { MessageKey, Messages };

export const resources: Readonly<Record<Language, Messages>> = { en, sv, no };

export const DEFAULT_LANGUAGE: Language = 'en';

export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(en, key);
}

/** `{{name}}` placeholders of a text, sorted and without duplicates. */
export function interpolationVariables(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)) names.add(match[1] as string);
  return [...names].sort();
}

/**
 * The text for `key` in `lang` with `{{name}}` replaced from `vars`. Falls back to English, then to
 * the key itself (a server-side log line is better than a crash; tests keep keys complete).
 */
export function translateKey(lang: Language, key: string, vars: Readonly<Record<string, string | number>> = {}): string {
  const table: Messages = resources[lang] ?? en;
  const text = isMessageKey(key) ? (table[key] || en[key]) : key;
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(vars, name) ? String(vars[name]) : whole,
  );
}
