/**
 * The browser session: the logged-in user (with token) and the other login records, stored
 * encrypted in local storage under one of three keys (spec sections 3 and 7):
 *
 * - `standard` (`user`): the logged-in user, what the app reads at start;
 * - `temporary` (`session.temporary`): a login in progress, e.g. a pending 2FA challenge; cleared on
 *   log-out and when the login completes or is cancelled;
 * - `first-login` (`session.first-login`): the trusted-browser record written at a 2FA login
 *   (remember flag, fingerprint, expiry); it survives log-out. The secret that makes the server
 *   skip the code is the HttpOnly `trusted_browser` cookie, which scripts cannot read.
 *
 * Encryption: AES-GCM (Web Crypto) with a random 256-bit key generated once per browser and kept
 * in IndexedDB as a non-extractable CryptoKey, so the key's bytes never appear in storage. This is
 * obfuscation against casual reading of local storage (a shared computer, a copied profile, a
 * browser extension that dumps storage), not protection against script running on our origin,
 * which can use the key as we do. Where Web Crypto is missing (plain http on a LAN address, which is
 * not a secure context) or IndexedDB is blocked, the value is only base64-encoded, or the key lives in
 * memory and the session ends with the page.
 */
import { useSyncExternalStore } from 'react';
import type { SessionUser } from '../../../shared/schemas/auth';
import { storage } from './preferences';

export type SessionKind = 'standard' | 'temporary' | 'first-login';

export const SESSION_KEYS: Readonly<Record<SessionKind, string>> = {
  standard: 'user',
  temporary: 'session.temporary',
  'first-login': 'session.first-login',
};

const DB_NAME = 'portal-session';
const STORE = 'keys';
const KEY_ID = 'session-key';
const ENCRYPTED = 'v1.';
const ENCODED = 'b1.';

function hasWebCrypto(): boolean {
  return typeof crypto !== 'undefined' && typeof crypto.subtle !== 'undefined';
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function openDb(): Promise<IDBDatabase> {
  const open = indexedDB.open(DB_NAME, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  return request(open);
}

function newKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

let keyPromise: Promise<CryptoKey> | null = null;

/** The browser's session key: loaded from IndexedDB, created on first use, in memory if IndexedDB fails. */
function sessionKey(): Promise<CryptoKey> {
  keyPromise ??= (async () => {
    if (typeof indexedDB === 'undefined') return newKey();
    try {
      const db = await openDb();
      try {
        const stored = await request(db.transaction(STORE, 'readonly').objectStore(STORE).get(KEY_ID));
        if (stored instanceof CryptoKey) return stored;
        const key = await newKey();
        await request(db.transaction(STORE, 'readwrite').objectStore(STORE).put(key, KEY_ID));
        return key;
      } finally {
        db.close();
      }
    } catch {
      return newKey();
    }
  })();
  return keyPromise;
}

/** Encrypts a JSON value for local storage. */
export async function encodeSession(value: unknown): Promise<string> {
  const plain = new TextEncoder().encode(JSON.stringify(value));
  if (!hasWebCrypto()) return ENCODED + toBase64(plain);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await sessionKey(), plain));
  const out = new Uint8Array(iv.length + cipher.length);
  out.set(iv);
  out.set(cipher, iv.length);
  return ENCRYPTED + toBase64(out);
}

/** Decrypts a stored value; null when it is missing, tampered with or written under another key. */
export async function decodeSession(text: string | null): Promise<unknown> {
  if (!text) return null;
  try {
    if (text.startsWith(ENCODED)) return JSON.parse(new TextDecoder().decode(fromBase64(text.slice(ENCODED.length))));
    if (!text.startsWith(ENCRYPTED) || !hasWebCrypto()) return null;
    const bytes = fromBase64(text.slice(ENCRYPTED.length));
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, 12) }, await sessionKey(), bytes.slice(12));
    return JSON.parse(new TextDecoder().decode(plain));
  } catch {
    return null;
  }
}

export async function readSessionRecord(kind: SessionKind): Promise<unknown> {
  return decodeSession(storage.get(SESSION_KEYS[kind]));
}

export async function writeSessionRecord(kind: SessionKind, value: unknown): Promise<void> {
  storage.set(SESSION_KEYS[kind], await encodeSession(value));
}

export function removeSessionRecord(kind: SessionKind): void {
  storage.remove(SESSION_KEYS[kind]);
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const idText = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;

/**
 * A stored or received user, if it has an ID and a token (the shape of sessionUserSchema, checked
 * by hand so zod stays out of the login route's JavaScript). Other fields are kept as they are.
 */
export function asSessionUser(value: unknown): SessionUser | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const ID = idText(record['ID']);
  const token = text(record['token']);
  if (!ID || !token) return null;
  return {
    ...record,
    ID,
    ParentID: idText(record['ParentID']),
    FirstName: text(record['FirstName']),
    LastName: text(record['LastName']),
    Email: text(record['Email']),
    token,
  };
}

// The current user and the login in progress, readable synchronously by guards, the login page
// and the API client (both are read once at start, before the first render).

let currentUser: SessionUser | null = null;
let loginInProgress: unknown = null;
const listeners = new Set<() => void>();

function setCurrentUser(user: SessionUser | null): void {
  currentUser = user;
  for (const listener of listeners) listener();
}

export function getSessionUser(): SessionUser | null {
  return currentUser;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSessionUser(): SessionUser | null {
  return useSyncExternalStore(subscribeSession, getSessionUser);
}

/** The temporary record (a login waiting for its 2FA code), as stored; its owner parses it. */
export function getLoginInProgress(): unknown {
  return loginInProgress;
}

/** Keeps a login in progress in memory at once and encrypted in storage (a reload keeps it). */
export async function saveLoginInProgress(value: unknown): Promise<void> {
  loginInProgress = value;
  const encoded = await encodeSession(value);
  // A login that completed, was cancelled or moved on while this was encrypted is not written back.
  if (loginInProgress === value) storage.set(SESSION_KEYS.temporary, encoded);
}

export function clearLoginInProgress(): void {
  loginInProgress = null;
  removeSessionRecord('temporary');
}

/** At application start: the stored user, if it decrypts and has a token, and any login in progress. */
export async function loadSession(): Promise<SessionUser | null> {
  const [stored, pending] = await Promise.all([readSessionRecord('standard'), readSessionRecord('temporary')]);
  const user = asSessionUser(stored);
  if (!user) removeSessionRecord('standard');
  loginInProgress = user ? null : pending;
  setCurrentUser(user);
  return user;
}

/** After a successful login (or a refreshed user): store and publish the user. */
export async function startSession(user: SessionUser): Promise<void> {
  await writeSessionRecord('standard', user);
  clearLoginInProgress();
  setCurrentUser(user);
}

/** Log-out, or an 'Unauthenticated.' answer: forget the user and any login in progress. */
export function endSession(): void {
  removeSessionRecord('standard');
  clearLoginInProgress();
  setCurrentUser(null);
}
