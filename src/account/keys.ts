/**
 * API key format and hashing. A key is `pdb_<prefix>_<secret>`: the 8-hex prefix is stored in clear
 * (to find the row and to show in listings), the whole key only as a SHA-256 hash, compared in
 * constant time. Keys are shown once, at creation, and never logged.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PATTERN = /^pdb_([0-9a-f]{8})_([A-Za-z0-9_-]{43})$/;

export interface NewKey {
  /** The full key: give it to the caller once, never store it. */
  key: string;
  /** Visible prefix `pdb_xxxxxxxx`, unique per key. */
  prefix: string;
  hash: Buffer;
}

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function generateKey(): NewKey {
  const id = randomBytes(4).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const key = `pdb_${id}_${secret}`;
  return { key, prefix: `pdb_${id}`, hash: hashKey(key) };
}

/** The lookup prefix of a well-formed key, or null for anything else (→ 401 without a lookup). */
export function keyPrefix(key: string): string | null {
  const m = KEY_PATTERN.exec(key);
  return m ? `pdb_${m[1]}` : null;
}

/** Constant-time comparison of a presented key against a stored hash. */
export function keyMatches(key: string, storedHash: Buffer): boolean {
  const h = hashKey(key);
  return h.length === storedHash.length && timingSafeEqual(h, storedHash);
}

/**
 * Constant-time equality of two secrets of any length (download tokens, …): their SHA-256 hashes are
 * compared, so neither the position of the first difference nor the length leaks through timing.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(hashKey(given), hashKey(expected));
}
