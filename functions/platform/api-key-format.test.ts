import { describe, expect, it } from 'vitest';
import { apiKeyHash, apiKeyPrefix, hasApiKeyShape, isApiKey, newApiKey } from './api-key-format';

describe('API key format', () => {
  it('makes random keys of 256 bits whose hash and prefix are what is stored and shown', () => {
    const a = newApiKey();
    const b = newApiKey();
    expect(a.key).not.toBe(b.key);
    expect(hasApiKeyShape(a.key)).toBe(true);
    expect(isApiKey(a.key)).toBe(true);
    expect(a.hash).toBe(apiKeyHash(a.key));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).not.toContain(a.key.slice(4, 20));
    expect(a.prefix).toBe(apiKeyPrefix(a.key));
    expect(a.prefix).toHaveLength(10);
    expect(a.key.startsWith(a.prefix)).toBe(true);
  });

  it('tells keys from access tokens and refuses keys of another shape', () => {
    expect(isApiKey('eyJhbGciOiJIUzI1NiJ9.e30.sig')).toBe(false);
    expect(hasApiKeyShape('tpk_short')).toBe(false);
    expect(hasApiKeyShape(`tpk_${'a'.repeat(42)}!`)).toBe(false);
  });
});
