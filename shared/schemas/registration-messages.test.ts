import { describe, expect, it } from 'vitest';
import { isMessageKey, resources } from '../i18n/index';
import { languages } from './common';
import { registrationMessageKeys } from './registration-messages';

describe('registration message keys', () => {
  it('each has a text in every language', () => {
    expect(registrationMessageKeys.filter((key) => !isMessageKey(key))).toEqual([]);
    for (const lang of languages) {
      const texts = resources[lang] as Readonly<Record<string, string>>;
      expect(registrationMessageKeys.filter((key) => !texts[key]?.trim()), lang).toEqual([]);
    }
  });
});
