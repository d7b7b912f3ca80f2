/**
 * The SQL Server procedure contract (change tracking example) end to end, only when MSSQL_URL
 * points to a database holding the demo schema (no SQL Server on this project's CI machine).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMssqlDriver } from '../../runtime/sql/drivers/mssql.js';
import type { SqlDriver } from '../../runtime/sql/drivers/driver.js';
import { MSSQL_CHANGE_TRACKING_SQL } from '../../runtime/sync/demo/mssql-change-tracking.js';
import { startSync, type RunningSync } from '../../runtime/sync/run.js';
import { projectWith, until } from './sync-fixture.js';

const MSSQL_URL = process.env['MSSQL_URL'];

describe.skipIf(!MSSQL_URL)('sync from SQL Server (MSSQL_URL)', () => {
  let driver: SqlDriver;
  let sync: RunningSync;
  let root: string;
  beforeAll(async () => {
    driver = createMssqlDriver({ connectionString: MSSQL_URL as string });
    for (const statement of MSSQL_CHANGE_TRACKING_SQL) await driver.query(statement, []);
    root = await projectWith({
      mssql: {
        Provider: 'mssql',
        ConnectionStrings: { main: MSSQL_URL },
        PollingIntervalSeconds: 0.5,
        TrackedObjects: [{ Name: 'Products', StoredProcedureName: 'sync.ProductChanges', InitialSyncMode: 'Incremental' }],
        Destinations: [{ Type: 'File', Key: 'f', Path: 'out/{version}.json' }],
      },
    });
    sync = await startSync({ root, logLevel: 'silent' });
    await until('state', () => sync.service.state.get('mssql', 'Products'));
  }, 120_000);
  afterAll(async () => {
    await sync?.close();
    await driver?.close();
  });

  it('insert, update, delete arrive in change-tracking version order', async () => {
    const [row] = await driver.query(
      `INSERT INTO inventory.Products (Sku, ProductName, CategoryId, UnitPrice, UnitsInStock, CreatedAt) OUTPUT inserted.ProductId
       SELECT TOP 1 @p1, N'sync', CategoryId, 1.00, 1, SYSDATETIMEOFFSET() FROM inventory.Categories`,
      [{ type: 'string', value: `MS-${Date.now()}` }],
    );
    const id = Number(row?.['ProductId']);
    await driver.query('UPDATE inventory.Products SET UnitsInStock = 5 WHERE ProductId = @p1', [{ type: 'int', value: id }]);
    await driver.query('DELETE FROM inventory.Products WHERE ProductId = @p1', [{ type: 'int', value: id }]);
    const records = await until('changes exported', async () => {
      const dir = path.join(root, 'out');
      const files = (await readdir(dir).catch(() => [] as string[])).sort();
      const all = (await Promise.all(files.map(async (f) => (JSON.parse(await readFile(path.join(dir, f), 'utf8')) as { records: Record<string, unknown>[] }).records))).flat();
      const mine = all.filter((r) => r['ProductId'] === id);
      return mine.some((r) => r['$operation'] === 'D') ? mine : null;
    });
    // Change tracking keeps the net change per row per call: the last one is the delete.
    expect(records.at(-1)).toMatchObject({ $operation: 'D', ProductId: id });
    const versions = records.map((r) => Number(r['$version']));
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
  });
});
