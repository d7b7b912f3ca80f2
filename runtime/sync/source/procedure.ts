/**
 * Calls a tracked object's procedure: PostgreSQL/PGlite `SELECT schema.fn($1::jsonb)` (a
 * function returning json, jsonb or text, read as text and parsed without losing digits), SQL Server `EXEC schema.proc @Json = @p1` (a procedure returning one
 * JSON document, possibly split over rows by FOR JSON). The name comes from the validated config
 * (identifier pattern) and is quoted part by part; the argument is always a parameter.
 */
import type { SqlDriver } from '../../sql/drivers/driver.js';
import type { SyncProvider } from '../config/model.js';
import { parseChangeSet, type ChangeSet } from './change-set.js';

export type CallMode = 'sync';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$/;

export function procedureSql(provider: SyncProvider, procedure: string): string {
  if (!IDENTIFIER.test(procedure)) throw new Error(`invalid procedure name '${procedure}'`);
  const parts = procedure.split('.');
  if (provider === 'mssql') return `EXEC ${parts.map((p) => `[${p}]`).join('.')} @Json = @p1`;
  // As text: the driver would JSON.parse a json result, losing digits past a double's (exact-json.ts).
  return `SELECT ${parts.map((p) => `"${p}"`).join('.')}($1::jsonb)::text AS "result"`;
}

/** Every row's first column, concatenated (SQL Server splits long FOR JSON output over rows). */
function documentOf(rows: readonly Record<string, unknown>[]): unknown {
  if (rows.length === 1) {
    const only = Object.values(rows[0] as Record<string, unknown>)[0];
    if (typeof only !== 'string') return only;
  }
  return rows.map((row) => String(Object.values(row)[0] ?? '')).join('');
}

export async function callProcedure(
  driver: SqlDriver,
  provider: SyncProvider,
  procedure: string,
  fromVersion: number,
  mode: CallMode = 'sync',
): Promise<ChangeSet> {
  const json = JSON.stringify({ fromVersion, mode });
  const rows = await driver.query(procedureSql(provider, procedure), [{ type: 'string', value: json, sqlType: 'nvarchar(max)' }]);
  return parseChangeSet(documentOf(rows), procedure);
}
