/** `AllowedColumns` entries: `Column` or `Column;Alias`. */
import type { SqlColumn } from '../../runtime/contract/index.js';

export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** null when the entry is not `Column` or `Column;Alias` with identifiers on both sides. */
export function parseColumn(entry: string): SqlColumn | null {
  const parts = entry.split(';').map((p) => p.trim());
  if (parts.length > 2) return null;
  const [db, alias] = parts;
  if (db === undefined || !IDENTIFIER.test(db)) return null;
  if (alias !== undefined && !IDENTIFIER.test(alias)) return null;
  return { db, name: alias ?? db };
}

/** The well-formed columns of a list (malformed entries are reported by a rule). */
export function parseColumns(entries: readonly string[]): SqlColumn[] {
  return entries.map(parseColumn).filter((c): c is SqlColumn => c !== null);
}
