/**
 * A request body's `Content-Encoding`. The gateway decodes none, so a body with any coding but
 * `identity` (or an empty header) is 415 REQUEST_UNSUPPORTED_ENCODING before it is read: a gzip
 * JSON body or multipart upload read as if plain is noise at best, stored as such at worst.
 */
import { WharfError } from '../errors/wharf-error.js';

/** The error refusing the coding, or null when the body is not coded. */
export function unsupportedCoding(header: string | undefined): WharfError | null {
  const coding = (header ?? '').trim().toLowerCase();
  return coding === '' || coding === 'identity' ? null : new WharfError('REQUEST_UNSUPPORTED_ENCODING', { encoding: header ?? '' });
}
