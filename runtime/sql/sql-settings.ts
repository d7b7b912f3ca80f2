/**
 * Settings of the SQL data API itself (the pools are SqlConnectionPooling:*, server-settings.ts):
 *   Sql:MaxBatchRows   rows one batch write may hold (1 to 1000, default 1000); an endpoint's
 *                      MaxBatchRows may only lower it. SQL Server also stops a batch at 2,098 values.
 *   Sql:SkipTokenSecret  key material of the `$skiptoken`s of keyset paging (secret; at least 32
 *                      characters); absent = a random key per process (tokens die with a restart
 *                      and are not accepted by another instance).
 */
import type { ConfigSource } from '../settings/config-source.js';
import { WharfError } from '../errors/wharf-error.js';

export interface SqlSettings {
  readonly maxBatchRows: number;
  /** '' = a random key per process. */
  readonly skipTokenSecret: string;
}

export function readSqlSettings(source: ConfigSource): SqlSettings {
  return {
    maxBatchRows: source.int('Sql:MaxBatchRows'),
    skipTokenSecret: skipTokenSecret(source),
  };
}

function skipTokenSecret(source: ConfigSource): string {
  const secret = source.string('Sql:SkipTokenSecret');
  if (secret !== '' && secret.length < 32) {
    throw new WharfError('SETTINGS_INVALID_VALUE', {
      key: 'Sql:SkipTokenSecret',
      source: source.entry('Sql:SkipTokenSecret')?.source ?? 'defaults',
      reason: 'must be at least 32 characters',
    });
  }
  return secret;
}
