/**
 * Upload file names: what the client sends becomes a single safe name (never a path), and the
 * extension rules of the endpoint and the server decide whether it may be stored.
 */
import path from 'node:path';
import { WharfError } from '../errors/wharf-error.js';
import type { FilesEndpoint } from '../contract/model.js';

/** Prefix of in-progress uploads; such names are never listed, served or accepted. */
export const TEMP_PREFIX = '.wharf-upload-';

const MAX_NAME_BYTES = 255;

/**
 * The last path component (either separator), NFC, control and Windows-reserved characters as `_`,
 * no trailing dots or spaces, no leading dot (no hidden files, never `.` or `..`).
 * null when nothing usable remains or the name is longer than 255 bytes.
 */
export function sanitizeFileName(raw: string): string | null {
  let name = raw.normalize('NFC').replace(/\\/g, '/');
  name = name.slice(name.lastIndexOf('/') + 1);
  name = name.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_').trim();
  name = name.replace(/[. ]+$/, '');
  if (name.startsWith('.')) name = `_${name.slice(1)}`;
  if (name === '' || Buffer.byteLength(name) > MAX_NAME_BYTES) return null;
  return name;
}

/** True for a name the store may hold: exactly what sanitizeFileName gives back for it. */
export function isStoredName(name: string): boolean {
  return name.length > 0 && sanitizeFileName(name) === name;
}

/** Lower-case extension with its dot; '' when the name has none. */
export function extensionOf(name: string): string {
  return path.extname(name).toLowerCase();
}

/** Throws 415 when the server blocks the extension or the endpoint does not allow it. */
export function checkExtension(name: string, endpoint: FilesEndpoint, blocked: ReadonlySet<string>): void {
  const extension = extensionOf(name);
  const shown = extension === '' ? '(none)' : extension;
  if (extension !== '' && blocked.has(extension)) throw new WharfError('FILES_EXTENSION_BLOCKED', { extension: shown });
  if (endpoint.allowedExtensions.length > 0 && !endpoint.allowedExtensions.includes(extension)) {
    throw new WharfError('FILES_EXTENSION_NOT_ALLOWED', { extension: shown });
  }
}
