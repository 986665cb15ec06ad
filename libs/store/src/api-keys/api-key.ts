import { createHash, randomBytes } from 'node:crypto';

/** What every Engram API key starts with, so scanners and people recognise one. */
export const API_KEY_PREFIX = 'egm_';

/** A key as made: the secret (shown once) and what is stored of it. */
export interface NewApiKey {
  /** `egm_` + 43 characters of base64url: 256 random bits. */
  readonly key: string;
  /** `key_` + 12 characters: names the key in lists and in `apikey revoke`; not secret. */
  readonly id: string;
  /** The key's first 12 characters, for telling keys apart in a list. */
  readonly prefix: string;
  readonly sha256: Buffer;
}

/** A fresh key with 256 random bits; only its hash is ever stored. */
export function newApiKey(): NewApiKey {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return {
    key,
    id: `key_${randomBytes(9).toString('base64url')}`,
    prefix: key.slice(0, 12),
    sha256: apiKeyHash(key),
  };
}

/**
 * SHA-256 of a key. A key carries 256 random bits, so a fast hash is enough: there is
 * nothing to guess that a slow hash would protect (unlike a password).
 */
export function apiKeyHash(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** Whether a credential has the shape of an Engram key (checked before any lookup). */
export function looksLikeApiKey(credential: string): boolean {
  return /^egm_[A-Za-z0-9_-]{43}$/.test(credential);
}
