/**
 * The SQL Server sync source end to end (a real `startSync`, the File destination), only when
 * MSSQL_URL points to a database holding the demo schema (runtime/sql/demo/mssql.sql):
 * - the outbox example (trigger + numbering procedure), which runs on SQL Server and on Babelfish;
 * - the change tracking example, the documented way on SQL Server, skipped on Babelfish (it has no
 *   change tracking: no CHANGE_TRACKING database option, no CHANGETABLE).
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMssqlDriver } from '../../runtime/sql/drivers/mssql.js';
import type { SqlDriver } from '../../runtime/sql/drivers/driver.js';
import { MSSQL_CHANGE_TRACKING_SQL } from '../../runtime/sync/demo/mssql-change-tracking.js';
import { MSSQL_OUTBOX_SQL } from '../../runtime/sync/demo/mssql-outbox.js';
import { startSync, type RunningSync } from '../../runtime/sync/run.js';
import { mssqlIsBabelfish } from '../sql/databases.js';
import { projectWith, until } from './sync-fixture.js';

const MSSQL_URL = process.env['MSSQL_URL'];
const BABELFISH = MSSQL_URL ? await mssqlIsBabelfish(MSSQL_URL) : false;

/** Inserts, updates and deletes one product; its id. SCOPE_IDENTITY: OUTPUT without INTO is refused on a table with a trigger. */
async function changeOneProduct(driver: SqlDriver): Promise<number> {
  const [row] = await driver.query(
    `INSERT INTO inventory.Products (Sku, ProductName, CategoryId, UnitPrice, UnitsInStock, CreatedAt)
     SELECT TOP 1 @p1, N'sync', CategoryId, 1.00, 1, SYSDATETIMEOFFSET() FROM inventory.Categories;
     SELECT CAST(SCOPE_IDENTITY() AS int) AS ProductId`,
    [{ type: 'string', value: `MS-${Date.now() % 1e9}` }],
  );
  const id = Number(row?.['ProductId']);
  await driver.query('UPDATE inventory.Products SET UnitsInStock = 5 WHERE ProductId = @p1', [{ type: 'int', value: id }]);
  await driver.query('DELETE FROM inventory.Products WHERE ProductId = @p1', [{ type: 'int', value: id }]);
  return id;
}

async function exported(root: string, id: number): Promise<Record<string, unknown>[]> {
  return until('changes exported', async () => {
    const dir = path.join(root, 'out');
    const files = (await readdir(dir).catch(() => [] as string[])).sort();
    const all = (await Promise.all(files.map(async (f) => (JSON.parse(await readFile(path.join(dir, f), 'utf8')) as { records: Record<string, unknown>[] }).records))).flat();
    const mine = all.filter((r) => r['ProductId'] === id);
    return mine.some((r) => r['$operation'] === 'D') ? mine : null;
  });
}

function syncing(procedure: string) {
  let driver: SqlDriver;
  let sync: RunningSync;
  let root: string;
  return {
    driver: () => driver,
    root: () => root,
    async start(setup: readonly string[]) {
      driver = createMssqlDriver({ connectionString: MSSQL_URL as string });
      for (const statement of setup) await driver.query(statement, []);
      root = await projectWith({
        mssql: {
          Provider: 'mssql',
          ConnectionStrings: { main: MSSQL_URL },
          PollingIntervalSeconds: 0.5,
          TrackedObjects: [{ Name: 'Products', StoredProcedureName: procedure, InitialSyncMode: 'Incremental' }],
          Destinations: [{ Type: 'File', Key: 'f', Path: 'out/{version}.json' }],
        },
      });
      sync = await startSync({ root, logLevel: 'silent' });
      await until('state', () => sync.service.state.get('mssql', 'Products'));
    },
    async stop(cleanup: readonly string[] = []) {
      await sync?.close();
      for (const statement of cleanup) await driver?.query(statement, []).catch(() => undefined);
      await driver?.close();
      if (root) await rm(root, { recursive: true, force: true });
    },
  };
}

describe.skipIf(!MSSQL_URL)('sync from SQL Server: outbox example (MSSQL_URL; SQL Server and Babelfish)', () => {
  const s = syncing('sync.ProductOutboxChanges');
  beforeAll(() => s.start(MSSQL_OUTBOX_SQL), 120_000);
  // the trigger goes again: on SQL Server it would refuse Table-mode OUTPUT writes on Products
  afterAll(() => s.stop(['DROP TRIGGER IF EXISTS inventory.ProductsOutbox']));

  it('insert, update, delete arrive in outbox version order, each change once', async () => {
    const id = await changeOneProduct(s.driver());
    const records = await exported(s.root(), id);
    expect(records.map((r) => r['$operation'])).toEqual(['I', 'U', 'D']);
    expect(records.at(-1)).toMatchObject({ $operation: 'D', ProductId: id, Sku: null });
    const versions = records.map((r) => Number(r['$version']));
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
    expect(new Set(versions).size).toBe(3);
  });
});

if (!BABELFISH) describe.skipIf(!MSSQL_URL)('sync from SQL Server: change tracking example (MSSQL_URL on real SQL Server)', () => {
  const s = syncing('sync.ProductChanges');
  beforeAll(() => s.start(MSSQL_CHANGE_TRACKING_SQL), 120_000);
  afterAll(() => s.stop());

  it('insert, update, delete arrive in change-tracking version order', async () => {
    const id = await changeOneProduct(s.driver());
    const records = await exported(s.root(), id);
    // Change tracking keeps the net change per row per call: the last one is the delete.
    expect(records.at(-1)).toMatchObject({ $operation: 'D', ProductId: id });
    const versions = records.map((r) => Number(r['$version']));
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
  });
});

if (BABELFISH) describe('sync from SQL Server: change tracking example', () => {
  it.skip('needs real SQL Server: Babelfish has no change tracking (ALTER DATABASE ... SET CHANGE_TRACKING, CHANGETABLE)', () => undefined);
});
