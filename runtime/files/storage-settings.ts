/**
 * FileStorage:* settings (the only reader of these keys):
 *   StorageDirectory   root of every Files endpoint; default `<dataDir>/files`; relative = against cwd
 *   MaxFileSizeBytes   upload limit when the endpoint sets none; default 52428800 (50 MB)
 *   BlockedExtensions  refused on every endpoint; default list below (reference notes)
 */
import path from 'node:path';
import type { ConfigSource } from '../settings/config-source.js';

export const DEFAULT_MAX_FILE_SIZE_BYTES = 52_428_800;

export const DEFAULT_BLOCKED_EXTENSIONS: readonly string[] = [
  '.exe', '.dll', '.bat', '.sh', '.cmd', '.msi', '.vbs', '.ps1', '.scr', '.wsf', '.hta', '.cpl', '.msc',
  '.pif', '.reg', '.com', '.vbe', '.wsh', '.php', '.php3', '.php4', '.php5', '.phtml', '.asp', '.aspx',
  '.ashx', '.asmx', '.jsp', '.jspx', '.cgi', '.pl', '.py', '.rb', '.jar', '.bin', '.elf', '.app', '.dmg',
  '.run', '.docm', '.xlsm', '.pptm',
];

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
  const configured = source.string('FileStorage:StorageDirectory', '');
  const blocked = source.stringList('FileStorage:BlockedExtensions') ?? DEFAULT_BLOCKED_EXTENSIONS;
  return {
    storageDirectory: configured === '' ? path.resolve(dataDir, 'files') : path.resolve(configured),
    maxFileSizeBytes: source.int('FileStorage:MaxFileSizeBytes', DEFAULT_MAX_FILE_SIZE_BYTES, { min: 1 }),
    blockedExtensions: new Set(blocked.map(normalizeExtension)),
  };
}
