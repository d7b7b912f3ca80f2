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

describe('Sql:SkipTokenSecret', () => {
  it('defaults to none (a random key per process) and takes 32 characters or more', () => {
    expect(read({}).skipTokenSecret).toBe('');
    expect(read({ Sql__SkipTokenSecret: 'x'.repeat(32) }).skipTokenSecret).toBe('x'.repeat(32));
  });

  it('refuses a short secret at startup', () => {
    expect(() => read({ Sql__SkipTokenSecret: 'short' })).toThrow("Setting 'Sql:SkipTokenSecret' (from environment variable Sql__SkipTokenSecret) must be at least 32 characters");
  });
});
