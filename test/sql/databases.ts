/**
 * The databases the SQL tests run against: PGlite (demo DB from the cached tarball) and a real
 * PostgreSQL (from the vitest globalSetup when configured, else started for this file).
 * SQL Server only when MSSQL_URL is set.
 */
import path from 'node:path';
import { inject } from 'vitest';
import type { SqlDriver } from '../../runtime/sql/drivers/driver.js';
import { parseMssqlConnectionString } from '../../runtime/contract/connection-string.js';
import { createMssqlDriver } from '../../runtime/sql/drivers/mssql.js';
import { createPgDriver } from '../../runtime/sql/drivers/pg.js';
import { createPgliteDriver } from '../../runtime/sql/drivers/pglite.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { ROOT } from './fixtures.js';

export interface TestDatabases {
  readonly pglite: SqlDriver;
  readonly postgres: SqlDriver;
  readonly postgresUrl: string;
  close(): Promise<void>;
}

function providedPgUrl(): string | undefined {
  try {
    return inject('pgUrl') || undefined;
  } catch {
    return undefined;
  }
}

export async function openTestDatabases(): Promise<TestDatabases> {
  const provided = providedPgUrl();
  const [pglite, server] = await Promise.all([
    createPgliteDriver({ connectionString: 'embedded://demo', cacheDir: path.join(ROOT, '.wharf') }),
    provided ? Promise.resolve<TestPostgres | null>(null) : startPostgres(),
  ]);
  const postgresUrl = provided ?? (server as TestPostgres).url;
  const postgres = createPgDriver({ connectionString: postgresUrl, max: 4 });
  return {
    pglite,
    postgres,
    postgresUrl,
    async close() {
      await Promise.allSettled([pglite.close(), postgres.close()]);
      await server?.stop();
    },
  };
}

export const MSSQL_URL = process.env['MSSQL_URL'];
export const MSSQL_SKIP_REASON = 'SQL Server tests skipped: set MSSQL_URL (ADO.NET or mssql:// form) to a database prepared with runtime/sql/demo/mssql.sql (sqlcmd -i) to run them';

export function openMssql(): SqlDriver | null {
  return MSSQL_URL ? createMssqlDriver({ connectionString: MSSQL_URL }) : null;
}

/**
 * Whether the SQL Server at `url` is Babelfish for PostgreSQL (its @@VERSION says so); tests of
 * features only real SQL Server has skip there, naming the reason.
 */
export async function mssqlIsBabelfish(url: string): Promise<boolean> {
  const driver = createMssqlDriver({ connectionString: url });
  try {
    const [row] = await driver.query(`SELECT CASE WHEN @@VERSION LIKE '%Babelfish%' THEN 1 ELSE 0 END AS babelfish`, []);
    return Number(row?.['babelfish']) === 1;
  } finally {
    await driver.close();
  }
}

/**
 * The SQL Server of `text` (either form) in both forms users write, optionally at another
 * host and port (a test's TCP relay): ADO.NET `Server=host,port;Database=...` and URL `mssql://...`.
 */
export function mssqlForms(text: string, at?: { host: string; port: number }): { ado: string; url: string } {
  const c = parseMssqlConnectionString(text);
  const server = at?.host ?? c.server;
  const port = at?.port ?? c.port;
  const quote = (v: string) => (/[;'"]/.test(v) || v !== v.trim() ? `'${v.replace(/'/g, "''")}'` : v);
  const ado = [
    `Server=${server}${c.options.instanceName && !at ? `\\${c.options.instanceName}` : ''}${port ? `,${port}` : ''}`,
    c.database ? `Database=${quote(c.database)}` : '',
    c.user ? `User Id=${quote(c.user)}` : '',
    c.password ? `Password=${quote(c.password)}` : '',
    c.options.encrypt !== undefined ? `Encrypt=${String(c.options.encrypt)}` : '',
    c.options.trustServerCertificate !== undefined ? `TrustServerCertificate=${String(c.options.trustServerCertificate)}` : '',
  ].filter(Boolean).join(';');
  const auth = c.user ? `${encodeURIComponent(c.user)}${c.password ? `:${encodeURIComponent(c.password)}` : ''}@` : '';
  const query = new URLSearchParams();
  if (c.options.encrypt !== undefined) query.set('encrypt', String(c.options.encrypt));
  if (c.options.trustServerCertificate !== undefined) query.set('trustServerCertificate', String(c.options.trustServerCertificate));
  const db = [at ? undefined : c.options.instanceName, c.database].filter((s) => s !== undefined).map((s) => encodeURIComponent(s as string)).join('/');
  const url = `mssql://${auth}${server}${port ? `:${port}` : ''}/${db}${query.size > 0 ? `?${query}` : ''}`;
  return { ado, url };
}
