/**
 * The wizard's state and last step in browser storage (spec section 2), cleared after success.
 *
 * sessionStorage, not localStorage: it survives a reload, a language switch and a visit to the
 * terms page in the same tab, but not the tab itself, so a personal identity number, an address and
 * a phone number typed on a shared or library computer do not wait on its disk for the next person.
 *
 * The password and its confirmation are never stored. Storage is plain text on disk and readable by
 * any script on the origin; a password typed into a half-finished registration must not outlive the
 * page. After a reload the wizard asks for it again (resumeStep stops at the password step).
 */
import { isWizardStep, type WizardStep } from './wizard-flow';

export const WIZARD_STORAGE_KEY = 'registration.wizard';
const VERSION = 1;

/** Fields that never reach storage. */
export const SECRET_FIELDS = ['userPassword', 'userPassword_confirmation'] as const;

export interface StoredWizard<V> {
  step: WizardStep;
  values: Partial<V>;
  /** Values the server has accepted (validate-imei, validate-email), so a reload does not ask again. */
  verified: { imei?: string; email?: string };
}

/** sessionStorage that never throws (blocked storage in some privacy modes: then nothing is kept). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

function browserStore(): KeyValueStore | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null;
  }
}

export function serializeWizard<V extends object>(state: StoredWizard<V>): string {
  const values: Record<string, unknown> = { ...state.values };
  for (const field of SECRET_FIELDS) delete values[field];
  return JSON.stringify({ version: VERSION, step: state.step, values, verified: state.verified });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads stored state back, keeping only fields of the expected type (`defaults` gives the fields
 * and their types): anything else, from an older version or edited by hand, is dropped.
 */
export function parseStoredWizard<V extends object>(text: string | null, defaults: V): StoredWizard<V> | null {
  if (!text) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(raw) || raw['version'] !== VERSION || !isWizardStep(raw['step']) || !isRecord(raw['values'])) return null;
  const values: Record<string, unknown> = {};
  for (const [field, fallback] of Object.entries(defaults)) {
    if ((SECRET_FIELDS as readonly string[]).includes(field)) continue;
    const stored = raw['values'][field];
    if (stored === undefined) continue;
    const sameType = fallback === null ? stored === null || typeof stored === 'number' : typeof stored === typeof fallback;
    if (sameType) values[field] = stored;
  }
  const verifiedRaw = isRecord(raw['verified']) ? raw['verified'] : {};
  const verified: StoredWizard<V>['verified'] = {};
  if (typeof verifiedRaw['imei'] === 'string') verified.imei = verifiedRaw['imei'];
  if (typeof verifiedRaw['email'] === 'string') verified.email = verifiedRaw['email'];
  return { step: raw['step'], values: values as Partial<V>, verified };
}

export function loadWizard<V extends object>(defaults: V, store: KeyValueStore | null = browserStore()): StoredWizard<V> | null {
  try {
    return parseStoredWizard(store?.getItem(WIZARD_STORAGE_KEY) ?? null, defaults);
  } catch {
    return null;
  }
}

export function saveWizard<V extends object>(state: StoredWizard<V>, store: KeyValueStore | null = browserStore()): void {
  try {
    store?.setItem(WIZARD_STORAGE_KEY, serializeWizard(state));
  } catch {
    // Storage full or blocked: the wizard still works, it just is not kept across a reload.
  }
}

export function clearWizard(store: KeyValueStore | null = browserStore()): void {
  try {
    store?.removeItem(WIZARD_STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
}
