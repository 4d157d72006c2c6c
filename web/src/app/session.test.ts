import { describe, expect, it, vi } from 'vitest';
import {
  SESSION_KEYS,
  asSessionUser,
  decodeSession,
  encodeSession,
  endSession,
  getLoginInProgress,
  getSessionUser,
  loadSession,
  saveLoginInProgress,
  startSession,
  writeSessionRecord,
} from './session';

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

describe('the login in progress (temporary record)', () => {
  function memoryStorage() {
    const items = new Map<string, string>();
    return {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
      items,
    };
  }

  it('is stored encrypted, read back at the next start (a reload) and cleared when the login completes', async () => {
    const localStorage = memoryStorage();
    vi.stubGlobal('window', { localStorage });
    try {
      const pending = { user_id: 'u-1', challenge: 'secret-challenge', resendAt: 1234 };
      await saveLoginInProgress(pending);
      const stored = localStorage.items.get(SESSION_KEYS.temporary) ?? '';
      expect(stored.startsWith('v1.')).toBe(true);
      expect(stored).not.toContain('secret-challenge');

      // A reload reads storage again (written here behind the module's back to tell the two apart).
      const later = { ...pending, resendAt: 5678 };
      await writeSessionRecord('temporary', later);
      expect(getLoginInProgress()).toEqual(pending);
      await loadSession();
      expect(getLoginInProgress()).toEqual(later);

      await startSession({ ID: '7', ParentID: null, FirstName: 'A', LastName: 'B', Email: 'a@example.com', token: 't' });
      expect(getLoginInProgress()).toBeNull();
      expect(localStorage.items.has(SESSION_KEYS.temporary)).toBe(false);
      expect(localStorage.items.has(SESSION_KEYS.standard)).toBe(true);
      endSession();
      expect(localStorage.items.has(SESSION_KEYS.standard)).toBe(false);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('is ignored at start when a user is logged in', async () => {
    const localStorage = memoryStorage();
    vi.stubGlobal('window', { localStorage });
    try {
      await writeSessionRecord('temporary', { challenge: 'old' });
      await writeSessionRecord('standard', { ID: '7', token: 't' });
      await loadSession();
      expect(getSessionUser()?.ID).toBe('7');
      expect(getLoginInProgress()).toBeNull();
      endSession();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
