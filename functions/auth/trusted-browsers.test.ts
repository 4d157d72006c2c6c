import { describe, expect, it } from 'vitest';
import { presentedTrustTokens, TRUST_COOKIE_MAX_TOKENS, trustCookie } from './trusted-browsers';

const token = (n: number) => `${String(n).padStart(3, '0')}${'a'.repeat(40)}`;

describe('trust cookie', () => {
  it('keeps the newest tokens first, without repeats, at most five', () => {
    const previous = [1, 2, 3, 4, 5].map(token);
    const value = trustCookie(token(9), [token(2), ...previous]);
    const tokens = value.split(';')[0]?.split('=')[1]?.split('.');
    expect(tokens).toEqual([9, 2, 1, 3, 4].map(token));
    expect(tokens).toHaveLength(TRUST_COOKIE_MAX_TOKENS);
  });

  it('reads the body token and the cookie, ignoring other cookies and anything not shaped like a token', () => {
    const event = { cookies: ['theme=dark', `trusted_browser=${token(1)}.${token(2)}.junk`, ` trusted_browser=${token(3)}`] };
    expect(presentedTrustTokens(token(7), event)).toEqual([7, 1, 2, 3].map(token));
    expect(presentedTrustTokens('short', {})).toEqual([]);
    expect(presentedTrustTokens(token(1), { cookies: [`trusted_browser=${token(1)}`] })).toEqual([token(1)]);
  });

  it('looks up a bounded number of tokens, whatever a request sends', () => {
    const many = Array.from({ length: 50 }, (_, i) => token(i)).join('.');
    expect(presentedTrustTokens(token(99), { cookies: [`trusted_browser=${many}`] })).toHaveLength(TRUST_COOKIE_MAX_TOKENS + 1);
  });
});
