/**
 * Settings of the SQL data API itself (the pools are SqlConnectionPooling:*, server-settings.ts):
 *   Sql:MaxBatchRows   rows one batch write may hold (1 to 1000, default 1000); an endpoint's
 *                      MaxBatchRows may only lower it. SQL Server also stops a batch at 2,098 values.
 */
import type { ConfigSource } from '../settings/config-source.js';
import { DEFAULT_MAX_BATCH_ROWS } from './batch-handler.js';

export interface SqlSettings {
  readonly maxBatchRows: number;
}

export function readSqlSettings(source: ConfigSource): SqlSettings {
  return {
    maxBatchRows: source.int('Sql:MaxBatchRows', DEFAULT_MAX_BATCH_ROWS, { min: 1, max: 1000 }),
  };
}
