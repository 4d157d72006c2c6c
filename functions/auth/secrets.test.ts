import { describe, expect, it } from 'vitest';
import { codeHash, randomCode, randomSecret, sameHash, seal, sha256Hex, unseal } from './secrets';

describe('login secrets', () => {
  it('random secrets are 256-bit URL-safe strings, never repeated', () => {
    const secrets = new Set(Array.from({ length: 50 }, randomSecret));
    expect(secrets.size).toBe(50);
    for (const s of secrets) expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('codes are 6 digits with leading zeros kept', () => {
    const codes = Array.from({ length: 2000 }, () => randomCode());
    for (const c of codes) expect(c).toMatch(/^\d{6}$/);
    // About 10% of codes start with 0; a code formatted as a plain number would lose it.
    expect(codes.filter((c) => c.startsWith('0')).length).toBeGreaterThan(100);
  });

  it('a code hash depends on the challenge, so the table alone cannot be searched for the code', () => {
    expect(codeHash('challenge-a', '123456')).toBe(codeHash('challenge-a', '123456'));
    expect(codeHash('challenge-a', '123456')).not.toBe(codeHash('challenge-b', '123456'));
    expect(codeHash('challenge-a', '123456')).not.toBe(sha256Hex('123456'));
    expect(sameHash(codeHash('c', '1'), codeHash('c', '1'))).toBe(true);
    expect(sameHash(codeHash('c', '1'), codeHash('c', '2'))).toBe(false);
    expect(sameHash('', codeHash('c', '1'))).toBe(false);
  });

  it('a sealed refresh token opens only with its challenge, and not after tampering', async () => {
    const sealed = await seal('refresh-token-value', 'the-challenge');
    expect(sealed).not.toContain('refresh-token-value');
    expect(await unseal(sealed, 'the-challenge')).toBe('refresh-token-value');
    expect(await unseal(sealed, 'another-challenge')).toBeNull();
    const parts = sealed.split('.');
    parts[3] = `${parts[3]?.startsWith('A') ? 'B' : 'A'}${parts[3]?.slice(1)}`;
    expect(await unseal(parts.join('.'), 'the-challenge')).toBeNull();
  });
});
