/**
 * The token value: `whf_<lookup id>_<secret>`.
 *  - `whf_` is a fixed prefix so secret scanners (and people) recognise a leaked Wharf token.
 *  - the lookup id (12 hex chars, 48 random bits) is NOT secret: it is stored in clear and indexed,
 *    so verification is one indexed read instead of a scan over every token.
 *  - the secret is 32 random bytes (256 bits) in base64url (43 chars).
 * Only SHA-256(token) is stored. A slow password hash (PBKDF2, bcrypt) protects LOW-entropy secrets
 * against guessing; a 256-bit random secret cannot be guessed, so a fast hash is enough and keeps
 * verification in microseconds. The comparison of hashes is constant-time.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_PREFIX = 'whf_';
const LOOKUP_ID_BYTES = 6;
const SECRET_BYTES = 32;
const TOKEN_PATTERN = /^whf_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export interface IssuedSecret {
  /** The full token, shown once. */
  readonly token: string;
  readonly lookupId: string;
  /** SHA-256 of the full token, hex. */
  readonly hash: string;
}

export function issueSecret(): IssuedSecret {
  const lookupId = randomBytes(LOOKUP_ID_BYTES).toString('hex');
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  const token = `${TOKEN_PREFIX}${lookupId}_${secret}`;
  return { token, lookupId, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** The lookup id of a well-formed token, or null when the text cannot be a Wharf token. */
export function parseLookupId(token: string): string | null {
  const match = TOKEN_PATTERN.exec(token);
  return match ? (match[1] ?? null) : null;
}

/** Constant-time comparison of two hex SHA-256 digests. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === 32 && right.length === 32 && timingSafeEqual(left, right);
}
