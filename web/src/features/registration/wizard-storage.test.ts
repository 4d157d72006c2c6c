import { describe, expect, it } from 'vitest';
import { PRIVATE } from '../../../../shared/schemas/registration';
import { defaultWizardValues } from './wizard-model';
import { clearWizard, loadWizard, parseStoredWizard, saveWizard, WIZARD_STORAGE_KEY, type KeyValueStore } from './wizard-storage';

function memoryStore(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

describe('wizard storage', () => {
  const defaults = defaultWizardValues();

  it('keeps the values, the step and the server checks, but never the password', () => {
    const store = memoryStore();
    const values = { ...defaults, is_private_account: PRIVATE, userName: 'ada@example.com', userPassword: 'Secret-pass1', userPassword_confirmation: 'Secret-pass1' };
    saveWizard({ step: 'review', values, verified: { imei: '356938035643809', email: 'ada@example.com' } }, store);
    const raw = store.data.get(WIZARD_STORAGE_KEY) ?? '';
    expect(raw).not.toContain('Secret-pass1');
    expect(raw).not.toContain('userPassword');
    const loaded = loadWizard(defaults, store);
    expect(loaded?.step).toBe('review');
    expect(loaded?.values).toMatchObject({ is_private_account: PRIVATE, userName: 'ada@example.com' });
    expect(loaded?.values).not.toHaveProperty('userPassword');
    expect(loaded?.verified).toEqual({ imei: '356938035643809', email: 'ada@example.com' });
  });

  it('is cleared after success', () => {
    const store = memoryStore();
    saveWizard({ step: 'imei', values: defaults, verified: {} }, store);
    clearWizard(store);
    expect(loadWizard(defaults, store)).toBeNull();
  });

  it('drops what it does not recognise: other versions, unknown steps, fields of the wrong type, a stored password', () => {
    expect(parseStoredWizard('not json', defaults)).toBeNull();
    expect(parseStoredWizard(JSON.stringify({ version: 2, step: 'imei', values: {} }), defaults)).toBeNull();
    expect(parseStoredWizard(JSON.stringify({ version: 1, step: 'payment', values: {} }), defaults)).toBeNull();
    const parsed = parseStoredWizard(
      JSON.stringify({
        version: 1,
        step: 'email',
        values: { Imei: 356938035643809, city: 'Oslo', is_private_account: 0, terms: 'yes', userPassword: 'Leaked-1', admin: true },
        verified: { imei: 5, email: 'a@b.se' },
      }),
      defaults,
    );
    expect(parsed).toEqual({ step: 'email', values: { city: 'Oslo', is_private_account: 0 }, verified: { email: 'a@b.se' } });
  });

  it('works without storage (blocked in some privacy modes)', () => {
    const throwing: KeyValueStore = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
      removeItem: () => {
        throw new Error('blocked');
      },
    };
    expect(() => saveWizard({ step: 'imei', values: defaults, verified: {} }, throwing)).not.toThrow();
    expect(loadWizard(defaults, throwing)).toBeNull();
    expect(() => clearWizard(throwing)).not.toThrow();
    expect(loadWizard(defaults, null)).toBeNull();
  });
});
