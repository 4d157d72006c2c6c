import { describe, expect, it } from 'vitest';
import { languageFromBrowser, parseLanguage, resolveSubsite } from './preferences';

describe('resolveSubsite', () => {
  it('prefers the root element, then ?subsite=, then the stored value, then brand 0', () => {
    expect(resolveSubsite('6', '?subsite=3', '2')).toBe(6);
    expect(resolveSubsite(undefined, '?subsite=3', '2')).toBe(3);
    expect(resolveSubsite(undefined, '', '2')).toBe(2);
    expect(resolveSubsite(undefined, '', null)).toBe(0);
  });
  it('ignores values that are not a subsite 0 to 7', () => {
    expect(resolveSubsite('9', '?subsite=x', '12')).toBe(0);
    expect(resolveSubsite('', '?subsite=-1', '7')).toBe(7);
  });
});

describe('parseLanguage', () => {
  it('accepts en, sv and no only', () => {
    expect(parseLanguage('sv')).toBe('sv');
    expect(parseLanguage('no')).toBe('no');
    expect(parseLanguage('nb')).toBeNull();
    expect(parseLanguage(null)).toBeNull();
  });
});

describe('languageFromBrowser', () => {
  it('takes the first of Swedish, Norwegian or English the browser prefers', () => {
    expect(languageFromBrowser(['sv-SE', 'en-US'])).toBe('sv');
    expect(languageFromBrowser(['nb-NO', 'sv'])).toBe('no');
    expect(languageFromBrowser(['nn'])).toBe('no');
    expect(languageFromBrowser(['no'])).toBe('no');
    expect(languageFromBrowser(['de-DE', 'sv'])).toBe('sv');
    expect(languageFromBrowser(['en-GB', 'sv-SE'])).toBe('en');
  });

  it('falls back to English', () => {
    expect(languageFromBrowser([])).toBe('en');
    expect(languageFromBrowser(['de', 'fi-FI'])).toBe('en');
  });
});
