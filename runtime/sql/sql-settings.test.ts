import { describe, expect, it } from 'vitest';
import { ConfigSource } from '../settings/config-source.js';
import { readSqlSettings } from './sql-settings.js';

const read = (env: Record<string, string>) => readSqlSettings(ConfigSource.from({}, 'environments/settings.json', env));

describe('Sql:MaxBatchRows', () => {
  it('defaults to 1000 and takes 1 to 1000', () => {
    expect(read({}).maxBatchRows).toBe(1000);
    expect(read({ Sql__MaxBatchRows: '1' }).maxBatchRows).toBe(1);
    expect(readSqlSettings(ConfigSource.from({ Sql: { MaxBatchRows: 250 } }, 'settings.json', {})).maxBatchRows).toBe(250);
  });

  it.each([
    ['0', 'must be 1 or more'],
    ['1001', 'must be 1000 or less'],
  ])('refuses %s at startup', (value, message) => {
    expect(() => read({ Sql__MaxBatchRows: value })).toThrow(`Setting 'Sql:MaxBatchRows' (from environment variable Sql__MaxBatchRows) ${message}`);
  });
});
