/**
 * Real PostgreSQL -> sync -> file destination: inserts, updates and deletes arrive in version
 * order, one atomically written file per batch, state.db holds the last delivered version.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSync, type RunningSync } from '../../runtime/sync/run.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { insertProducts, installOutbox, pgEnvironment, projectWith, sql, until } from './sync-fixture.js';

let db: TestPostgres;
let root: string;
let sync: RunningSync;

async function exported(): Promise<Record<string, unknown>[]> {
  const dir = path.join(root, 'out', 'staging', 'Products');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
  const batches = await Promise.all(files.map(async (f) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as { records: Record<string, unknown>[] }));
  return batches.flatMap((b) => b.records);
}

beforeAll(async () => {
  db = await startPostgres();
  await installOutbox(db.url);
  root = await projectWith({
    staging: pgEnvironment(db.url, [{ Type: 'File', Key: 'files', Path: 'out/{environment}/{object}/{version}.json' }], { MaxRecordsPerBatch: 2 }),
  });
  sync = await startSync({ root, logLevel: 'silent' });
  await until('initial state', () => sync.service.state.get('staging', 'Products'));
});

afterAll(async () => {
  await sync?.close();
  await db?.stop();
});

describe('sync to files', () => {
  it('delivers inserts, updates and deletes in version order', async () => {
    const [a, b] = await insertProducts(db.url, 2, 'FILE-');
    await sql(db.url, `UPDATE inventory."Products" SET "UnitsInStock" = 77 WHERE "ProductId" = $1`, [a]);
    await sql(db.url, `DELETE FROM inventory."Products" WHERE "ProductId" = $1`, [b]);
    const records = await until('4 changes exported', async () => {
      const r = await exported();
      return r.length >= 4 ? r : null;
    });
    expect(records.map((r) => [r['$operation'], r['ProductId'], r['$version']])).toEqual([
      ['I', a, 1],
      ['I', b, 2],
      ['U', a, 3],
      ['D', b, 4],
    ]);
    expect(records[2]).toMatchObject({ UnitsInStock: 77, Sku: 'FILE-1' });
    const files = await readdir(path.join(root, 'out', 'staging', 'Products'));
    expect(files.sort()).toEqual(['000000000002.json', '000000000004.json']);
    expect(JSON.parse(await readFile(path.join(root, 'out', 'staging', 'Products', '000000000004.json'), 'utf8'))).toMatchObject({
      environment: 'staging',
      object: 'Products',
      type: 'Diff',
      fromVersion: 2,
      version: 4,
      count: 2,
    });
    await until('version 4 stored', () => sync.service.state.get('staging', 'Products')?.version === 4);
  });

  it('the example function answers json built by json_agg (not a jsonb document), with the same records: every column, and only the key of a delete', async () => {
    const answer = await sql(db.url, `SELECT pg_typeof(r)::text AS type, r::text AS text FROM sync."ProductChanges"('{"fromVersion": 0}') r`);
    expect(answer.rows[0].type).toBe('json');
    const doc = JSON.parse(answer.rows[0].text as string) as { Metadata: unknown; Data: Record<string, unknown>[] };
    expect(doc.Metadata).toEqual({ Sync: { Version: 4, Type: 'Diff', ReasonCode: 0 } });
    const keys = (r: Record<string, unknown>) => Object.keys(r).sort();
    expect(doc.Data.map((r) => r['$version'])).toEqual([1, 2, 3, 4]);
    expect(keys(doc.Data[0]!)).toEqual(['$operation', '$version', 'CategoryId', 'ChangedAt', 'CreatedAt', 'ProductId', 'ProductName', 'Sku', 'UnitPrice', 'UnitsInStock']);
    expect(doc.Data[3]).toEqual({ $operation: 'D', $version: 4, ChangedAt: expect.any(String), ProductId: expect.any(Number) });
    const empty = await sql(db.url, `SELECT r::text AS text FROM sync."ProductChanges"('{"fromVersion": 4}') r`);
    expect(JSON.parse(empty.rows[0].text as string)).toEqual({ Metadata: { Sync: { Version: 4, Type: 'Diff', ReasonCode: 0 } }, Data: [] });
  });
});
