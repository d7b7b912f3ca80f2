/**
 * Database destination: one row per change into a table on another connection, columns
 * ObjectName, Version, Operation, Data (the change as JSON), all rows of a batch in one statement
 * (PostgreSQL: jsonb_to_recordset; SQL Server: OPENJSON), so a batch lands entirely or not at all.
 * On PostgreSQL a unique index on (ObjectName, Version) makes re-deliveries no-ops.
 */
import type { SqlDriver } from '../../sql/drivers/driver.js';
import { createSqlDriver } from '../../sql/drivers/factory.js';
import type { DatabaseDestination } from '../config/model.js';
import { recordVersion } from '../source/change-set.js';
import type { Batch } from './batch.js';
import type { SyncDestination } from './destination.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$/;

export function insertSql(provider: 'postgres' | 'mssql', table: string): string {
  if (!IDENTIFIER.test(table)) throw new Error(`invalid table name '${table}'`);
  const parts = table.split('.');
  if (provider === 'mssql') {
    return `INSERT INTO ${parts.map((p) => `[${p}]`).join('.')} ([ObjectName], [Version], [Operation], [Data])
SELECT [ObjectName], [Version], [Operation], [Data] FROM OPENJSON(@p1) WITH ([ObjectName] nvarchar(100), [Version] bigint, [Operation] char(1), [Data] nvarchar(max) AS JSON)`;
  }
  return `INSERT INTO ${parts.map((p) => `"${p}"`).join('.')} ("ObjectName", "Version", "Operation", "Data")
SELECT r."ObjectName", r."Version", r."Operation", r."Data" FROM jsonb_to_recordset($1::jsonb) AS r("ObjectName" text, "Version" bigint, "Operation" text, "Data" jsonb)
ON CONFLICT DO NOTHING`;
}

export function createDatabaseDestination(config: DatabaseDestination): SyncDestination {
  let driver: Promise<SqlDriver> | null = null;
  const sql = insertSql(config.provider, config.table);
  return {
    key: config.key,
    type: 'Database',
    async deliver(batch: Batch) {
      driver ??= createSqlDriver({ provider: config.provider, connectionString: config.connectionString });
      const rows = batch.records.map((record) => ({
        ObjectName: batch.object,
        Version: recordVersion(record) ?? batch.toVersion,
        Operation: String(record['$operation'] ?? 'U'),
        Data: record,
      }));
      await (await driver).query(sql, [{ type: 'string', value: JSON.stringify(rows), sqlType: 'nvarchar(max)' }]);
    },
    async close() {
      const current = driver;
      driver = null;
      if (current) await (await current).close();
    },
  };
}
