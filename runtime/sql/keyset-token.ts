/**
 * The `$skiptoken` of keyset paging: the last row's ordering values, sealed with AES-256-GCM so a
 * client can neither read nor change them (a masked key stays hidden; any change fails the tag).
 * The associated data binds a token to its endpoint and its `$orderby`: a token of another endpoint
 * or ordering, a tampered or truncated one, or one sealed with another key is refused (400).
 * Token = base64url(iv[12] | ciphertext | tag[16]); plaintext = JSON array of the values.
 * The key: Sql:SkipTokenSecret (sql-settings.ts), else random per process.
 * A page read again (the same last values for the same binding) gets the token sealed the first
 * time instead of a new encryption (about 8 µs each): bounded, and a token is a function of what
 * the caller's own page already determined, so handing out the same one tells no caller anything.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { WharfError } from '../errors/wharf-error.js';

export type KeysetValue = string | number | boolean | null;

/** Longest `$skiptoken` accepted (a page's ordering values: at most 21 columns). */
export const MAX_SKIPTOKEN_LENGTH = 8192;

/** Sealed tokens kept per sealer, by binding and values (then the map starts again). */
export const SEALED_KEPT = 4096;

export class SkipTokenSealer {
  readonly #key: Buffer;
  readonly #sealed = new Map<string, string>();
  #encryptions = 0;

  /** `secret` '' = a random key for this process (tokens die with it). */
  constructor(secret: string) {
    this.#key = secret === '' ? randomBytes(32) : createHash('sha256').update(`wharf-skiptoken\u0000${secret}`).digest();
  }

  /** How many tokens this sealer has encrypted (tests: a page read again does not). */
  get encryptions(): number {
    return this.#encryptions;
  }

  seal(values: readonly KeysetValue[], binding: string): string {
    const plain = JSON.stringify(values);
    // the binding's length first: no two (binding, values) pairs share a key
    const key = `${binding.length}:${binding}${plain}`;
    const known = this.#sealed.get(key);
    if (known !== undefined) return known;
    this.#encryptions++;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(binding, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const token = Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
    if (this.#sealed.size >= SEALED_KEPT) this.#sealed.clear();
    this.#sealed.set(key, token);
    return token;
  }

  /** The values of a token sealed for `binding` with `count` values, else a 400. */
  open(token: string, binding: string, count: number): KeysetValue[] {
    const invalid = new WharfError('SQL_SKIPTOKEN_INVALID');
    if (token.length > MAX_SKIPTOKEN_LENGTH || !/^[A-Za-z0-9_-]+$/.test(token)) throw invalid;
    const raw = Buffer.from(token, 'base64url');
    if (raw.length < 12 + 16 + 2) throw invalid;
    let text: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(binding, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      text = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      throw invalid;
    }
    const values = JSON.parse(text) as unknown;
    const scalar = (v: unknown): v is KeysetValue => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
    if (!Array.isArray(values) || values.length !== count || !values.every(scalar)) throw invalid;
    return values;
  }
}
