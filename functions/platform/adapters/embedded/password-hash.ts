/**
 * Password hashes for the local identity adapter: scrypt (node:crypto) with a random 16-byte salt,
 * stored as `scrypt$N$r$p$<salt base64>$<hash base64>` so the cost can be raised later without
 * invalidating stored hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const COST = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions & { N: number; r: number; p: number }) {
  // scrypt needs 128 * N * r bytes; allow that plus headroom instead of the 32 MiB default.
  const maxmem = 256 * options.N * options.r + 1024 * 1024;
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, KEY_LENGTH, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

const STORED = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = STORED.exec(stored);
  if (!match) return false;
  const [, n, r, p, salt, hash] = match;
  const N = Number(n);
  const cost = { N, r: Number(r), p: Number(p) };
  // Refuse costs no hash of ours has, rather than let a bad record tie up the CPU.
  if (N < 2 || N > 2 ** 20 || (N & (N - 1)) !== 0 || cost.r < 1 || cost.r > 32 || cost.p < 1 || cost.p > 16) return false;
  const expected = Buffer.from(hash ?? '', 'base64');
  if (expected.length < 16) return false;
  const actual = await derive(password, Buffer.from(salt ?? '', 'base64'), expected.length, cost);
  return timingSafeEqual(actual, expected);
}
