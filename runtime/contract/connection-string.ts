/**
 * Connection strings as users write them, parsed without the database client libraries (so the
 * settings loader can refuse a malformed one at startup, naming the key, before any driver loads).
 *
 * SQL Server (`mssql`):
 * - ADO.NET: `Server=host,1433;Database=db;User Id=u;Password=p;Encrypt=true;TrustServerCertificate=false`
 *   (keys case-insensitive, spaces inside keys optional, values quoted with ' or " when they hold `;`);
 * - URL: `mssql://u:p@host:1433/db?encrypt=true&trustServerCertificate=false` (also `sqlserver://`),
 *   the query keys being the same keys as the ADO.NET form.
 * PostgreSQL (`postgres`):
 * - URL: `postgres://u:p@host:5432/db?sslmode=require` (handed to `pg` as it is, after a check);
 * - keywords (Npgsql, as docs/settings.md shows): `Host=db;Port=5432;Username=app;Password=...;Database=app`.
 * Anything else (an unknown key, a bad value, a JDBC URL, a space-separated libpq string) is a
 * ConnectionStringError whose message names the key; values (passwords) never appear in it.
 */
import { ConnectionStringError } from './connection-string-grammar.js';
import { parseMssqlConnectionString } from './mssql-connection-string.js';
import { parsePostgresConnectionString } from './pg-connection-string.js';

export { ConnectionStringError, keyValuePairs } from './connection-string-grammar.js';
export { parseMssqlConnectionString, type MssqlConnectionConfig } from './mssql-connection-string.js';
export { parsePostgresConnectionString, type PgConnectionConfig } from './pg-connection-string.js';

/** The problem with a database connection string, or null; for startup checks (never prints a value). */
export function connectionStringProblem(provider: 'mssql' | 'postgres' | 'embedded', text: string): string | null {
  if (provider === 'embedded') return null;
  try {
    if (provider === 'mssql') parseMssqlConnectionString(text);
    else parsePostgresConnectionString(text);
    return null;
  } catch (error) {
    if (error instanceof ConnectionStringError) return error.message;
    throw error;
  }
}
