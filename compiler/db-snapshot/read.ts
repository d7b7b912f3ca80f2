/**
 * The committed database snapshot (endpoints/database.snapshot.json), when the project has one.
 * Absent: the build runs exactly as without it (offline, columns untyped). Unreadable: an error
 * diagnostic, so a broken snapshot never passes silently.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DB_SNAPSHOT_FILE, parseDbSnapshot, type DbSnapshot } from '../../runtime/contract/db-snapshot.js';
import type { Diagnostic } from '../diagnostics.js';
import { canonicalJson } from '../emit/canonical-json.js';

export interface SnapshotRead {
  readonly snapshot: DbSnapshot | null;
  /** The file's text (hashed into the build's cache keys); null when absent. */
  readonly text: string | null;
  readonly diagnostics: Diagnostic[];
}

export function readDbSnapshot(root: string): SnapshotRead {
  let text: string;
  try {
    text = readFileSync(path.join(root, DB_SNAPSHOT_FILE), 'utf8');
  } catch {
    return { snapshot: null, text: null, diagnostics: [] };
  }
  try {
    return { snapshot: parseDbSnapshot(text), text, diagnostics: [] };
  } catch (error) {
    const message = `The database snapshot cannot be read: ${(error as Error).message}`;
    return {
      snapshot: null,
      text,
      diagnostics: [{ severity: 'error', code: 'db-snapshot-invalid', file: DB_SNAPSHOT_FILE, line: 0, column: 0, pointer: '', message, hint: 'Run `wharf db pull` to write it again.' }],
    };
  }
}

/** The snapshot's canonical text: what `wharf db pull` writes and the build copies into generated/. */
export function snapshotText(snapshot: DbSnapshot): string {
  return canonicalJson(snapshot);
}
