/**
 * Reads a configuration file the build found (entity.json, a settings or sync file). A file that
 * cannot be read (a directory of that name, no permission, removed meanwhile) is a `file-unreadable`
 * diagnostic naming the file and the reason, never an exception that ends the build without one.
 */
import { readFileSync } from 'node:fs';
import type { Diagnostic } from './diagnostics.js';

const REASONS: Readonly<Record<string, string>> = {
  EISDIR: 'it is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOENT: 'it no longer exists (or is a broken symbolic link)',
  ELOOP: 'a symbolic link loop',
};

/** The diagnostic for a read of `file` (relative to the project root) that failed with `error`. */
export function unreadableFile(file: string, error: unknown): Diagnostic {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const reason = REASONS[code] ?? (error instanceof Error ? error.message : String(error));
  const hint = code === 'EISDIR' ? 'Replace the directory with a JSON file of that name.' : undefined;
  return { severity: 'error', code: 'file-unreadable', file, line: 0, column: 0, pointer: '', message: `The file cannot be read: ${reason}`, ...(hint ? { hint } : {}) };
}

/** The bytes of `absolutePath`, or the `file-unreadable` diagnostic for `file`. */
function readConfigFile(absolutePath: string, file: string): Buffer | Diagnostic {
  try {
    return readFileSync(absolutePath);
  } catch (error) {
    return unreadableFile(file, error);
  }
}

/** The diagnostics `check` gives for the bytes of `absolutePath`, or its `file-unreadable` diagnostic. */
export function checkConfigFile(absolutePath: string, file: string, check: (bytes: Buffer) => Diagnostic[]): Diagnostic[] {
  const read = readConfigFile(absolutePath, file);
  return Buffer.isBuffer(read) ? check(read) : [read];
}
