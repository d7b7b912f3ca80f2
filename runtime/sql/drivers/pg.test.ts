import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../../test/setup/postgres.js';
import type { TypedValue } from '../plan.js';
import { SqlDriverError, type SqlDriver } from './driver.js';
import { MAX_PREPARED_PER_CONNECTION, createPgDriver, statementName } from './pg.js';

const int = (value: number): TypedValue => ({ value, type: 'int' });
const PREPARED = 'SELECT name FROM pg_prepared_statements ORDER BY name';

describe('pg driver: prepared statements', () => {
  let server: TestPostgres;
  let driver: SqlDriver;
  let admin: pg.Client;

  beforeAll(async () => {
    server = await startPostgres({ sql: 'CREATE TABLE t (id integer PRIMARY KEY); INSERT INTO t VALUES (1), (2);' });
    // one connection, so every query sees the same session's statements
    driver = createPgDriver({ connectionString: server.url, max: 1 });
    admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await driver?.close();
    await server?.stop();
  });

  it('names a statement after its SQL text', () => {
    expect(statementName('SELECT 1')).toBe(statementName('SELECT 1'));
    expect(statementName('SELECT 1')).not.toBe(statementName('SELECT 2'));
    expect(statementName('SELECT 1')).toMatch(/^wharf_[0-9a-f]{40}$/);
  });

  it('prepares a query once per connection and binds it again with new values', async () => {
    const sql = 'SELECT id FROM t WHERE id >= $1 ORDER BY id';
    expect(await driver.query(sql, [int(1)])).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await driver.query(sql, [int(2)])).toEqual([{ id: 2 }]);
    const names = (await driver.query(PREPARED, [])).map((r) => r['name']);
    expect(names).toContain(statementName(sql));
    expect(names.filter((n) => n === statementName(sql))).toHaveLength(1);
  });

  it('answers with the new row shape after the table changed under a prepared statement', async () => {
    const sql = 'SELECT * FROM t WHERE id = $1';
    expect(await driver.query(sql, [int(1)])).toEqual([{ id: 1 }]);
    await admin.query("ALTER TABLE t ADD COLUMN label text NOT NULL DEFAULT 'x'");
    expect(await driver.query(sql, [int(1)])).toEqual([{ id: 1, label: 'x' }]);
    expect(await driver.query(sql, [int(2)])).toEqual([{ id: 2, label: 'x' }]);
  });

  it('keeps a value error a value error, and the next query works', async () => {
    const sql = 'SELECT id FROM t WHERE id = $1';
    const error = await driver.query(sql, [{ value: 'abc', type: 'string' }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SqlDriverError);
    expect((error as SqlDriverError).kind).toBe('value');
    expect(await driver.query(sql, [int(2)])).toEqual([{ id: 2 }]);
  });

  it(`keeps at most ${MAX_PREPARED_PER_CONNECTION} statements on one connection; further ones still answer`, async () => {
    for (let i = 0; i < MAX_PREPARED_PER_CONNECTION + 20; i++) {
      expect(await driver.query(`SELECT ${i} + $1::int AS n`, [int(1)])).toEqual([{ n: i + 1 }]);
    }
    const names = await driver.query(PREPARED, []);
    expect(names.length).toBeLessThanOrEqual(MAX_PREPARED_PER_CONNECTION);
    expect(names.length).toBeGreaterThan(MAX_PREPARED_PER_CONNECTION - 10);
  });
});
