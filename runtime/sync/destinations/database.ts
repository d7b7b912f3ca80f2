/**
 * Database destination: one row per change into a table on another connection, columns
 * ObjectName, Version, Operation, Data (the change as JSON), all rows of a batch in one statement
 * (PostgreSQL: jsonb_to_recordset; SQL Server: OPENJSON), so a batch lands entirely or not at all.
 * On PostgreSQL a re-delivery is a no-op: a change with a `$version` is skipped when a row of its
 * object and version is stored (the changes of one version always travel in one batch, so one row
 * of it means all). Changes without a `$version` (a Full export) are always inserted. Nothing is
 * skipped on a conflict: a unique index on (ObjectName, Version) that several changes of one
 * version (one transaction under change tracking) or of a Full export violate, or any other
 * constraint, fails the batch (retries, then a dead letter), never drops rows silently.
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
  const quoted = parts.map((p) => `"${p}"`).join('.');
  return `INSERT INTO ${quoted} ("ObjectName", "Version", "Operation", "Data")
SELECT r."ObjectName", r."Version", r."Operation", r."Data" FROM jsonb_to_recordset($1::jsonb) AS r("ObjectName" text, "Version" bigint, "Operation" text, "Data" jsonb, "Versioned" boolean)
WHERE NOT (r."Versioned" AND EXISTS (SELECT 1 FROM ${quoted} AS stored WHERE stored."ObjectName" = r."ObjectName" AND stored."Version" = r."Version"))`;
}

export function createDatabaseDestination(config: DatabaseDestination): SyncDestination {
  let driver: Promise<SqlDriver> | null = null;
  const sql = insertSql(config.provider, config.table);
  return {
    key: config.key,
    type: 'Database',
    async deliver(batch: Batch) {
      driver ??= createSqlDriver({ provider: config.provider, connectionString: config.connectionString });
      const rows = batch.records.map((record) => {
        const version = recordVersion(record);
        return { ObjectName: batch.object, Version: version ?? batch.toVersion, Operation: String(record['$operation'] ?? 'U'), Data: record, Versioned: version !== null };
      });
      await (await driver).query(sql, [{ type: 'string', value: JSON.stringify(rows), sqlType: 'nvarchar(max)' }]);
    },
    async close() {
      const current = driver;
      driver = null;
      if (current) await (await current).close();
    },
  };
}
