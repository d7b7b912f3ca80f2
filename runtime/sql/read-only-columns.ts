/**
 * Columns the database sets itself, from the same catalogue read as the column kinds
 * (column-types.ts): computed columns (PostgreSQL `GENERATED ALWAYS AS (...) STORED`, SQL Server
 * `AS (...)`) on every database, and identity columns on SQL Server (which refuses an explicit
 * value while IDENTITY_INSERT is off, as it always is for Wharf's statements). A Table-mode write
 * that gives one a value is a 422 before any SQL (write-body.ts); PUT leaves them out of its SET
 * (write-plan.ts). A PostgreSQL identity column takes an explicit value unless it is `GENERATED
 * ALWAYS` (the catalogue snapshot does not tell the two apart); the database's refusal of that is
 * answered with the same 422 (write-errors.ts).
 */
import type { SnapshotColumn } from '../contract/db-snapshot.js';
import type { SqlDriver } from './drivers/driver.js';
import type { ColumnKinds } from './odata/type-check.js';

const READ_ONLY = new WeakMap<ColumnKinds, ReadonlySet<string>>();

/** Keeps the object's read-only columns with its kinds map (the map the write path already carries). */
export function keepReadOnly(kinds: ColumnKinds, columns: readonly SnapshotColumn[], provider: SqlDriver['provider']): void {
  const names = columns.filter((c) => c.generated === true || (c.identity === true && provider === 'mssql')).map((c) => c.name);
  if (names.length > 0) READ_ONLY.set(kinds, new Set(names));
}

/** Whether the database column takes no value from a write (false when the catalogue was not read). */
export function isReadOnly(kinds: ColumnKinds | undefined, column: string): boolean {
  return kinds !== undefined && READ_ONLY.get(kinds)?.has(column) === true;
}

/** The 422 detail text for a value given to such a column (`name`: the exposed name). */
export function readOnlyMessage(name: string): string {
  return `${name} is set by the database and cannot be written`;
}
