/**
 * Creates tables of a store shared by several instances. `CREATE TABLE IF NOT EXISTS` is not safe
 * against itself: two instances starting at once on an empty database both try to create the
 * table's type and one fails (duplicate key in pg_type). So the statements run as one implicit
 * transaction (one simple query; rolled back whole on error) behind a transaction-level advisory
 * lock: the second instance waits for the first, then finds the tables.
 */

/** What the stores need of a PostgreSQL connection or pool. */
export interface PgQueryable {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

export async function createSchema(db: PgQueryable, statements: readonly string[]): Promise<void> {
  await db.query([`SELECT pg_advisory_xact_lock(hashtext('wharf schema'))`, ...statements].join(';\n'));
}
