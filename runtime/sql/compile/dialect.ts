/** Pick the compiler for a provider. The embedded database (PGlite) is PostgreSQL. */
import type { SqlCompiler } from './compiler.js';
import { mssqlCompiler } from './dialects/mssql.js';
import { postgresCompiler } from './dialects/postgres.js';

export type SqlProvider = 'mssql' | 'postgres' | 'embedded';

export function compilerFor(provider: SqlProvider): SqlCompiler {
  return provider === 'mssql' ? mssqlCompiler : postgresCompiler;
}
