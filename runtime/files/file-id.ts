/**
 * File ids: base64url (no padding) of `<environment>:<file name>`. The environment is part of the
 * id, so an id minted in one environment is a 404 in another. Decoding is strict: only the
 * base64url alphabet, canonical (re-encodes to the same text), valid UTF-8, the environment of
 * the request, and a name that isStoredName accepts (no separators, no NUL, no `..`, no temp name).
 * Anything else decodes to null, which the handler answers with 404.
 */
import { TEMP_PREFIX, isStoredName } from './file-name.js';

export function encodeFileId(environment: string, name: string): string {
  return Buffer.from(`${environment.toLowerCase()}:${name}`, 'utf8').toString('base64url');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeFileId(id: string, environment: string): string | null {
  if (id.length === 0 || id.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(id)) return null;
  const bytes = Buffer.from(id, 'base64url');
  if (bytes.toString('base64url') !== id) return null;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  const colon = text.indexOf(':');
  if (colon < 0 || text.slice(0, colon) !== environment.toLowerCase()) return null;
  const name = text.slice(colon + 1);
  if (!isStoredName(name) || name.startsWith(TEMP_PREFIX)) return null;
  return name;
}
