import { describe, expect, it } from 'vitest';
import { asSessionUser, decodeSession, encodeSession } from './session';

describe('session encoding', () => {
  it('round-trips a value through AES-GCM and hides it from a casual reader', async () => {
    const user = { ID: '7', token: 'secret-token', FirstName: 'Anna' };
    const stored = await encodeSession(user);
    expect(stored.startsWith('v1.')).toBe(true);
    expect(stored).not.toContain('secret-token');
    expect(atob(stored.slice(3))).not.toContain('secret-token');
    expect(await decodeSession(stored)).toEqual(user);
  });
  it('uses a fresh IV each time', async () => {
    expect(await encodeSession({ a: 1 })).not.toBe(await encodeSession({ a: 1 }));
  });
  it('rejects tampered or foreign values', async () => {
    const stored = await encodeSession({ a: 1 });
    const tampered = stored.slice(0, -4) + (stored.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(await decodeSession(tampered)).toBeNull();
    expect(await decodeSession('{"ID":"1","token":"t"}')).toBeNull();
    expect(await decodeSession(null)).toBeNull();
  });
});

describe('asSessionUser', () => {
  it('needs an ID and a token and keeps other fields', () => {
    expect(asSessionUser({ ID: 5, token: 't', FirstName: 'Ola', is_admin: true })).toEqual({
      ID: '5',
      ParentID: null,
      FirstName: 'Ola',
      LastName: '',
      Email: '',
      token: 't',
      is_admin: true,
    });
    expect(asSessionUser({ ID: '5' })).toBeNull();
    expect(asSessionUser({ token: 't' })).toBeNull();
    expect(asSessionUser('user')).toBeNull();
  });
});
