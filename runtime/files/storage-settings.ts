/**
 * FileStorage:* settings (the only reader of these keys):
 *   StorageDirectory   root of every Files endpoint; '' (the default) = `<dataDir>/files`; relative = against cwd
 *   MaxFileSizeBytes   upload limit when the endpoint sets none
 *   BlockedExtensions  refused on every endpoint
 * Defaults and ranges: schemas/settings.schema.json.
 */
import path from 'node:path';
import type { ConfigSource } from '../settings/config-source.js';

export interface FileStorageSettings {
  /** Absolute. */
  readonly storageDirectory: string;
  readonly maxFileSizeBytes: number;
  /** Lower case with leading dot. */
  readonly blockedExtensions: ReadonlySet<string>;
}

export function normalizeExtension(extension: string): string {
  const lower = extension.trim().toLowerCase();
  return lower.startsWith('.') ? lower : `.${lower}`;
}

export function readFileStorageSettings(source: ConfigSource, dataDir: string): FileStorageSettings {
  const configured = source.string('FileStorage:StorageDirectory');
  const blocked = source.stringList('FileStorage:BlockedExtensions') ?? [];
  return {
    storageDirectory: configured === '' ? path.resolve(dataDir, 'files') : path.resolve(configured),
    maxFileSizeBytes: source.int('FileStorage:MaxFileSizeBytes'),
    blockedExtensions: new Set(blocked.map(normalizeExtension)),
  };
}
