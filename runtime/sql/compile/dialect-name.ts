/** The SQL dialects the compiler writes (compiler.ts and its helpers aggregate-sql.ts, keyset-sql.ts). */
export type DialectName = 'postgres' | 'mssql';
