/**
 * Whether a secret the caller sent (an API key, an admin key, a CSRF value) equals the expected one,
 * in time that depends on neither: both are hashed to SHA-256 first and the digests compared with
 * timingSafeEqual, so not even the expected secret's length shows (a plain length check first, or
 * `===`, answers sooner for a wrong length or an early mismatch).
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
