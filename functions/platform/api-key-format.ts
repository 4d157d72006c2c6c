/**
 * What an API key looks like and how it is stored (docs/decisions/0045-api-keys-and-typed-client.md):
 * `tpk_` and 43 base64url characters (256 random bits). Only its SHA-256 is kept: a key is a random
 * secret of full entropy, so a fast hash is enough (nothing to guess), and the lookup is one GetItem
 * by hash. The list shows `tpk_` and the first six characters (the prefix) to tell keys apart.
 */
import { createHash, randomBytes } from 'node:crypto';

const TAG = 'tpk_';
const KEY_SHAPE = /^tpk_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = TAG.length + 6;

/** Whether a bearer token is an API key (an access token is a JWT, which never starts with the tag). */
export const isApiKey = (token: string): boolean => token.startsWith(TAG);
/** Whether it is an API key that could be valid; anything else with the tag is answered 401 without a lookup. */
export const hasApiKeyShape = (token: string): boolean => KEY_SHAPE.test(token);

export const apiKeyHash = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');
export const apiKeyPrefix = (key: string): string => key.slice(0, PREFIX_LENGTH);

/** A new key: the secret (shown once), its hash and its prefix. */
export function newApiKey(): { key: string; hash: string; prefix: string } {
  const key = `${TAG}${randomBytes(32).toString('base64url')}`;
  return { key, hash: apiKeyHash(key), prefix: apiKeyPrefix(key) };
}

/** The stored items' keys in the `apiKeys` table, shared by the middleware and the api-keys capability. */
export const apiKeyItemKeys = {
  hash: (hash: string) => ({ pk: `hash#${hash}`, sk: 'hash' }),
  key: (accountId: string, id: string) => ({ pk: `account#${accountId}`, sk: `key#${id}` }),
  count: (accountId: string) => ({ pk: `account#${accountId}`, sk: 'count' }),
};
