/** docs/sync.md shows exactly the example SQL the demo and the tests run. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MSSQL_CHANGE_TRACKING_SQL } from './mssql-change-tracking.js';
import { MSSQL_OUTBOX_SQL } from './mssql-outbox.js';
import { POSTGRES_OUTBOX_BACKFILL_SQL, POSTGRES_OUTBOX_SQL } from './postgres-outbox.js';

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const docs = squash(readFileSync(new URL('../../../docs/sync.md', import.meta.url), 'utf8'));

describe('docs/sync.md examples', () => {
  it.each([...POSTGRES_OUTBOX_SQL, POSTGRES_OUTBOX_BACKFILL_SQL, ...MSSQL_CHANGE_TRACKING_SQL, ...MSSQL_OUTBOX_SQL].map((s) => [squash(s).slice(0, 60), s]))('%s', (_name, statement) => {
    expect(docs).toContain(squash(statement));
  });
});
