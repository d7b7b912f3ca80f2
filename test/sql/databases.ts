/**
 * The databases the SQL tests run against: PGlite (demo DB from the cached tarball) and a real
 * PostgreSQL (from the vitest globalSetup when configured, else started for this file).
 * SQL Server only when MSSQL_URL is set.
 */
import path from 'node:path';
import { inject } from 'vitest';
import type { SqlDriver } from '../../runtime/sql/drivers/driver.js';
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
