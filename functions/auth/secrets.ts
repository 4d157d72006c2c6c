/**
 * The secrets of the login flows and how they are stored (docs/architecture.md rule 7: only hashes).
 *
 * - Challenges and reset codes are 256-bit random strings; a SHA-256 of one is its record's key,
 *   so the table alone never lets anyone answer a challenge or use a reset link.
 * - A 2FA code has only 10^6 values, so a plain hash would fall to a dictionary; it is stored as
 *   an HMAC keyed with its challenge, which only the browser holds.
 * - The refresh token of a login waiting for its second factor is sealed (JWE, A256GCM) under a
 *   key derived from the challenge: the server can open it only when the browser presents the
 *   challenge again, together with the right code.
 */
import { createHash, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { compactDecrypt, CompactEncrypt } from 'jose';
import { TWO_FACTOR_CODE_LENGTH } from '../../shared/schemas/auth';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** 256 random bits, URL-safe (reset links, challenges). */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A uniformly random numeric code with leading zeros kept. */
export function randomCode(length = TWO_FACTOR_CODE_LENGTH): string {
  return String(randomInt(0, 10 ** length)).padStart(length, '0');
}

export function codeHash(challenge: string, code: string): string {
  return createHmac('sha256', challenge).update(code, 'utf8').digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

function sealingKey(challenge: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', challenge, 'tracking-portal/2fa', 'refresh-token', 32));
}

export async function seal(plaintext: string, challenge: string): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(plaintext)).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(sealingKey(challenge));
}

/** Null when the sealed text was not made with this challenge (or was altered). */
export async function unseal(sealed: string, challenge: string): Promise<string | null> {
  try {
    const { plaintext } = await compactDecrypt(sealed, sealingKey(challenge), { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
    return new TextDecoder().decode(plaintext);
  } catch {
    return null;
  }
}
