/**
 * Database destination against real PostgreSQL: several changes of one version (one transaction
 * under change tracking) and a Full export without versions all land; a re-delivery is a no-op
 * without any unique index; a constraint the rows violate fails the batch (so it is retried and
 * dead-lettered) instead of dropping rows silently; hostile values (NUL, lone surrogates, huge
 * text, odd keys) either land exactly or fail the batch, never half of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch } from '../../runtime/sync/destinations/batch.js';
import { createDatabaseDestination } from '../../runtime/sync/destinations/database.js';
import type { SyncDestination } from '../../runtime/sync/destinations/destination.js';
import { freezePostgres } from '../operations/server-process.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startSync } from '../../runtime/sync/run.js';
import { insertProducts, installOutbox, pgEnvironment, projectWith, sql, until } from './sync-fixture.js';

let db: TestPostgres;
const open: SyncDestination[] = [];

beforeAll(async () => {
  db = await startPostgres();
  await sql(db.url, `CREATE TABLE "Plain" ("Id" bigserial PRIMARY KEY, "ObjectName" text NOT NULL, "Version" bigint NOT NULL, "Operation" char(1) NOT NULL, "Data" jsonb NOT NULL)`);
  await sql(db.url, `CREATE INDEX ON "Plain" ("ObjectName", "Version")`);
  await sql(db.url, `CREATE TABLE "Strict" ("Id" bigserial PRIMARY KEY, "ObjectName" text NOT NULL, "Version" bigint NOT NULL, "Operation" char(1) NOT NULL, "Data" jsonb NOT NULL, UNIQUE ("ObjectName", "Version"))`);
});

afterAll(async () => {
  for (const d of open) await d.close();
  await db?.stop();
});

function destination(table: string): SyncDestination {
  const d = createDatabaseDestination({ type: 'Database', key: 'replica', provider: 'postgres', connectionString: db.url, table });
  open.push(d);
  return d;
}

const rowsOf = async (table: string, object: string) =>
  (await sql(db.url, `SELECT "Version", "Operation", "Data"->>'Id' AS id FROM "${table}" WHERE "ObjectName" = $1 ORDER BY "Id"`, [object])).rows;

describe('database destination', () => {
  it('three changes of one version all land, and delivering the batch again adds nothing', async () => {
    const batch: Batch = {
      environment: 'prod', object: 'Tx', type: 'Diff', fromVersion: 6, toVersion: 7,
      records: [{ $operation: 'I', $version: 7, Id: 1 }, { $operation: 'I', $version: 7, Id: 2 }, { $operation: 'D', $version: 7, Id: 3 }],
    };
    const d = destination('public.Plain');
    await d.deliver(batch);
    await d.deliver(batch);
    expect(await rowsOf('Plain', 'Tx')).toEqual([
      { Version: '7', Operation: 'I', id: '1' },
      { Version: '7', Operation: 'I', id: '2' },
      { Version: '7', Operation: 'D', id: '3' },
    ]);
  });

  it('a Full export without versions, in two parts: every row lands', async () => {
    const d = destination('public.Plain');
    await d.deliver({ environment: 'prod', object: 'Full', type: 'Full', fromVersion: 0, toVersion: 0, part: 1, records: [{ Id: 1 }, { Id: 2 }] });
    await d.deliver({ environment: 'prod', object: 'Full', type: 'Full', fromVersion: 0, toVersion: 9, records: [{ Id: 3 }] });
    expect((await rowsOf('Plain', 'Full')).map((r) => r.id)).toEqual(['1', '2', '3']);
  });

  it('a unique (ObjectName, Version) index that changes of one version violate: the batch fails, no row of it is dropped silently', async () => {
    const d = destination('public.Strict');
    const batch: Batch = { environment: 'prod', object: 'Tx', type: 'Diff', fromVersion: 0, toVersion: 3, records: [{ $operation: 'U', $version: 3, Id: 1 }, { $operation: 'U', $version: 3, Id: 2 }] };
    await expect(d.deliver(batch)).rejects.toThrow(/duplicate key value violates unique constraint/);
    expect(await rowsOf('Strict', 'Tx')).toEqual([]);
    // Changes with their own versions: landed once, a re-delivery adds nothing.
    const own: Batch = { ...batch, records: [{ $operation: 'U', $version: 2, Id: 1 }, { $operation: 'U', $version: 3, Id: 2 }] };
    await d.deliver(own);
    await d.deliver(own);
    expect((await rowsOf('Strict', 'Tx')).map((r) => r.id)).toEqual(['1', '2']);
  });

  it.each([
    ['a NUL character', 'a\u0000b'],
    ['a lone surrogate', 'a\udc00b'],
  ])('a value with %s (jsonb cannot hold it): the whole batch fails, no row of it lands', async (_name, value) => {
    const d = destination('public.Plain');
    const object = `Hostile${value.charCodeAt(1)}`;
    const batch: Batch = { environment: 'prod', object, type: 'Diff', fromVersion: 0, toVersion: 2, records: [{ $operation: 'I', $version: 1, Id: 1 }, { $operation: 'I', $version: 2, Id: 2, Text: value }] };
    await expect(d.deliver(batch)).rejects.toThrow();
    expect(await rowsOf('Plain', object)).toEqual([]);
  });

  it('odd keys, a 1 MB value, numbers past 2^53 as text, nested arrays: land exactly', async () => {
    const d = destination('public.Plain');
    const record = { $operation: 'I', $version: 1, Id: 1, 'a.b:c/d': 'x', '': 'empty key', 'é"\'': [[1, null], { deep: true }], Big: 'y'.repeat(1024 * 1024), Money: '$1,234.50', Huge: '9007199254740993' };
    await d.deliver({ environment: 'prod', object: 'Odd', type: 'Diff', fromVersion: 0, toVersion: 1, records: [record] });
    const stored = (await sql(db.url, `SELECT "Data"::text AS data FROM "Plain" WHERE "ObjectName" = 'Odd'`)).rows;
    expect(stored.map((r) => JSON.parse(r.data as string))).toEqual([record]);
  });
  it('end to end: a change the destination table refuses (a CHECK constraint) becomes a dead letter after the retries, the changes before it are stored once, the object waits', async () => {
    await installOutbox(db.url);
    await sql(db.url, `CREATE TABLE "NoDeletes" ("Id" bigserial PRIMARY KEY, "ObjectName" text NOT NULL, "Version" bigint NOT NULL, "Operation" char(1) NOT NULL CHECK ("Operation" <> 'D'), "Data" jsonb NOT NULL, UNIQUE ("ObjectName", "Version"))`);
    const root = await projectWith(
      { prod: pgEnvironment(db.url, [{ Type: 'Database', Key: 'replica', Provider: 'postgres', ConnectionString: db.url, Table: 'public.NoDeletes' }], { MaxRecordsPerBatch: 1 }) },
      { Health: { Enabled: false }, DeadLetters: { BackoffBaseSeconds: 0.1, ReplayIntervalSeconds: 0.1, MaxReplayAttempts: 2 } },
    );
    const sync = await startSync({ root, logLevel: 'silent' });
    try {
      const start = (await until('state', () => sync.service.state.get('prod', 'Products'))).version;
      const [id] = await insertProducts(db.url, 1, 'CHK-');
      await sql(db.url, `DELETE FROM inventory."Products" WHERE "ProductId" = $1`, [id]);
      await insertProducts(db.url, 1, 'CHK-AFTER-');
      const letter = await until('exhausted dead letter', () => sync.service.deadLetters.list().find((l) => l.status === 'exhausted'));
      expect(letter).toMatchObject({ sourceKey: 'prod/Products/replica', fromVersion: start + 1, toVersion: start + 2, error: expect.stringContaining('violates check constraint') });
      expect(sync.service.deadLetters.list()).toHaveLength(1);
      expect(sync.service.state.get('prod', 'Products')?.version).toBe(start + 1);
      const rows = (await sql(db.url, `SELECT "Version", "Operation" FROM "NoDeletes" ORDER BY "Id"`)).rows;
      expect(rows).toEqual([{ Version: String(start + 1), Operation: 'I' }]);
    } finally {
      await sync.close();
    }
  });
  it('a destination database frozen (SIGSTOP) mid-run: the delivery fails within the command timeout (30 s), not never; after SIGCONT it lands', async () => {
    const d = destination('public.Plain');
    const one = (v: number): Batch => ({ environment: 'prod', object: 'Frozen', type: 'Diff', fromVersion: v - 1, toVersion: v, records: [{ $operation: 'I', $version: v, Id: v }] });
    await d.deliver(one(1));
    const thaw = await freezePostgres(db.port);
    let outcome: string;
    try {
      outcome = await Promise.race([
        d.deliver(one(2)).then(() => 'delivered', (e: Error) => `failed: ${e.message}`),
        new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 45_000)),
      ]);
    } finally {
      thaw();
    }
    expect(outcome).toMatch(/^failed: /);
    await until('delivered after SIGCONT', () => d.deliver(one(2)).then(() => true, () => false));
    expect((await rowsOf('Plain', 'Frozen')).map((r) => r.id)).toEqual(['1', '2']);
  }, 90_000);
});
