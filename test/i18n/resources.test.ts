/**
 * Every text exists in every language: en is the source; sv and no have exactly its keys, none
 * empty, with the same {{variables}}; every key the web app uses exists. A missing key fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brands } from '../../shared/brands';
import { featureRequirements } from '../../shared/features';
import { interpolationVariables, isMessageKey, modules, resources, translateKey } from '../../shared/i18n/index';
import { LANGUAGES } from '../../shared/i18n/languages';
import { authMessageKeys } from '../../shared/schemas/auth-messages';
import { languages } from '../../shared/schemas/common';
import { registrationMessageKeys } from '../../shared/schemas/registration-messages';
import { menuItems } from '../../web/src/app/access';
import { pageTitleKeys } from '../../web/src/app/paths';
import { loginNotices } from '../../web/src/features/auth/api/login-notices';

const root = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.(test|d)\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Literal keys in `t('Key')`, `i18n.t('Key')`, `translateMessage('Key')` and `i18nKey="Key"`. */
function literalKeys(source: string): string[] {
  const keys: string[] = [];
  const patterns = [/\bt\(\s*'((?:[^'\\]|\\.)+)'/g, /\bt\(\s*"((?:[^"\\]|\\.)+)"/g, /translateMessage\(\s*'([^']+)'/g, /i18nKey="([^"]+)"/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) keys.push(match[1] as string);
  return keys;
}

/** Message keys the API answers with that the shell can meet (functions/platform/http.ts and docs/api.md). */
const apiKeys = [
  'Unauthenticated.',
  'ValidationFailed',
  'FieldRequired',
  'InvalidType',
  'TooShort',
  'TooLong',
  'InvalidFormat',
  'InvalidValue',
  'UnknownField',
  'InvalidJson',
  'UnsupportedContentType',
  'InvalidTimeZone',
  'InvalidSubsite',
  'Forbidden',
  'NoAccessToAdministratorPages',
  'NoAccessToSupportPages',
  // A route's account feature the caller's account does not have (shared/features.ts).
  ...Object.values(featureRequirements).map((r) => r.deniedKey),
  'NotFound',
  'Conflict',
  'TooManyAttempts',
  'SomethingWentWrong',
  'NetworkError',
  'SpecifyUsername',
  'SpecifyPassword',
  'InvalidCredentials',
  'InvalidAccess',
  'PasswordMustInclude',
  'PasswordNotMatch',
  'SpecifyNewPassword',
  'User updated successfully.',
];

const en = resources.en;

describe('i18n resources', () => {
  it('defines each key in exactly one module, with the same keys in every language of a module', () => {
    const owners = new Map<string, string[]>();
    for (const [name, module] of Object.entries(modules)) {
      for (const key of Object.keys(module.en)) owners.set(key, [...(owners.get(key) ?? []), name]);
      for (const lang of languages) expect(Object.keys(module[lang]).sort(), `${name}.${lang}`).toEqual(Object.keys(module.en).sort());
    }
    expect([...owners].filter(([, names]) => names.length > 1)).toEqual([]);
  });

  it('covers exactly the portal languages', () => {
    expect([...LANGUAGES]).toEqual([...languages]);
    expect(Object.keys(resources).sort()).toEqual([...languages].sort());
  });

  for (const lang of languages) {
    it(`${lang} has exactly the English keys`, () => {
      const keys = Object.keys(resources[lang]).sort();
      const source = Object.keys(en).sort();
      expect(keys.filter((k) => !source.includes(k)), 'keys not in en').toEqual([]);
      expect(source.filter((k) => !keys.includes(k)), `keys missing in ${lang}`).toEqual([]);
    });

    it(`${lang} has no empty text and the same {{variables}} as en`, () => {
      for (const [key, text] of Object.entries(resources[lang])) {
        expect(text.trim(), `${lang}.${key} is empty`).not.toBe('');
        expect(interpolationVariables(text), `${lang}.${key} variables`).toEqual(interpolationVariables(en[key as keyof typeof en]));
      }
    });
  }

  it('sv and no are translated, not copies of en', () => {
    for (const lang of ['sv', 'no'] as const) {
      const same = Object.entries(resources[lang]).filter(([key, text]) => text === en[key as keyof typeof en] && !/^\W*\{\{/.test(text));
      // Names and loan words that are the same in all three languages.
      const allowed = new Set(['Support', 'Administration', 'AllRightsReserved', 'OutboxKindSms', 'MapStatus', 'OutboxKindAutoplan', 'Webhooks']);
      expect(same.map(([key]) => key).filter((key) => !allowed.has(key)), `${lang} texts equal to English`).toEqual([]);
    }
  });

  it('has every key the web app uses literally', () => {
    const missing: string[] = [];
    for (const file of sourceFiles(join(root, 'web', 'src'))) {
      for (const key of literalKeys(readFileSync(file, 'utf8'))) {
        if (!isMessageKey(key)) missing.push(`${file.slice(root.length)}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('finds keys in the source (the scan itself works)', () => {
    const login = readFileSync(join(root, 'web/src/features/auth/pages/login-page.tsx'), 'utf8');
    expect(literalKeys(login)).toContain('UsernameOrEmail');
  });

  it('has every key the web app uses through data: page titles, menu, brand banners, login notices', () => {
    const all = { enable_rfid: true, enable_car_booking: true, EnableSafeReturnHome: true, realtime_map: true, is_admin: true, is_support: false, ParentID: null };
    const keys = [
      ...Object.values(pageTitleKeys),
      'PageNotFoundTitle',
      ...menuItems({ ...all, basic_only: false }).map((i) => i.labelKey),
      ...menuItems({ ...all, basic_only: true }).map((i) => i.labelKey),
      ...brands.flatMap((b) => (b.banner ? [b.banner.textKey, b.banner.linkKey] : [])),
      ...Object.values(loginNotices),
    ];
    expect(keys.filter((k) => !isMessageKey(k))).toEqual([]);
  });

  it('has every message key the API can answer with', () => {
    expect(apiKeys.filter((k) => !isMessageKey(k))).toEqual([]);
  });

  it('has a text for every key the accounts and registration routes answer with', () => {
    expect(authMessageKeys.filter((k) => !isMessageKey(k)), 'authMessageKeys').toEqual([]);
    expect(registrationMessageKeys.filter((k) => !isMessageKey(k)), 'registrationMessageKeys').toEqual([]);
  });

  it('keeps what the login page can show in the core module (it loads no feature texts)', () => {
    const loginRoute = [
      'SpecifyUsername', 'SpecifyPassword', 'InvalidCredentials', 'TooManyAttempts', 'TooManyRequests', 'InvalidAccess',
      'SpecifyCode', 'InvalidCode', 'InvalidCodeTriesLeft', 'CodeExpired', 'InvalidEmail2FA', 'LoginAgain',
      // Handed over by other pages: the notices and the alert opt-out's answer.
      ...Object.values(loginNotices), 'AlertOptOutDone',
    ];
    expect(loginRoute.filter((k) => !Object.prototype.hasOwnProperty.call(modules.core.en, k))).toEqual([]);
  });
});

describe('translateKey', () => {
  it('translates with variables', () => {
    expect(translateKey('sv', 'InvalidCredentials', { count: 2 })).toBe('Felaktigt användarnamn och/eller lösenord. Återstående försök: 2.');
    expect(translateKey('no', 'SpecifyUsername')).toBe('Skriv inn brukernavnet eller e-postadressen din.');
    expect(translateKey('en', 'Unauthenticated.')).toBe('Your session has ended. Please log in again.');
  });
  it('leaves unknown variables visible and returns unknown keys as they are', () => {
    expect(translateKey('en', 'InvalidCredentials')).toContain('{{count}}');
    expect(translateKey('en', 'NoSuchKey')).toBe('NoSuchKey');
  });
});
