/**
 * Hostile and odd source values through the procedure call (real PostgreSQL, the driver wharf sync
 * uses): a bigint past 2^53 and a numeric with more digits than a double holds keep every digit (as
 * the decimal text, as the gateway answers such columns), money, bytea, xml, arrays, json values,
 * odd keys and a 1 MB text arrive as PostgreSQL renders them in json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlDriver } from '../../runtime/sql/drivers/factory.js';
import type { SqlDriver } from '../../runtime/sql/drivers/driver.js';
import { callProcedure } from '../../runtime/sync/source/procedure.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { sql } from './sync-fixture.js';

let db: TestPostgres;
let driver: SqlDriver;

beforeAll(async () => {
  db = await startPostgres();
  await sql(db.url, `CREATE TABLE "Odd" ("Id" bigint, "Amount" numeric(24,6), "Price" money, "Blob" bytea, "Doc" xml, "Tags" text[], "Meta" jsonb, "Text" text, "Ratio" float8)`);
  await sql(
    db.url,
    `INSERT INTO "Odd" VALUES (9007199254740993, 123456789012345678.123456, 12.5, '\\x00ff', '<a b="1">x</a>', ARRAY['a,b', 'c"d', NULL], '{"k.e/y": [1, {"n": 12345678901234567890}]}', repeat('z', 1048576), 0.1),
                              (42, 1.5, 0, NULL, NULL, '{}', 'null', 'é ✓ \\', 1e300)`,
  );
  await sql(
    db.url,
    `CREATE FUNCTION odd_changes(args jsonb) RETURNS json LANGUAGE sql AS $$
       SELECT json_build_object('Metadata', json_build_object('Sync', json_build_object('Version', 2, 'Type', 'Diff')),
                                'Data', json_agg(json_build_object('$operation', 'U', '$version', CASE WHEN o."Id" = 42 THEN 2 ELSE 1 END) :: jsonb || to_jsonb(o) ORDER BY o."Id" DESC))
       FROM "Odd" o $$`,
  );
  driver = await createSqlDriver({ provider: 'postgres', connectionString: db.url });
});

afterAll(async () => {
  await driver?.close();
  await db?.stop();
});

describe('source values', () => {
  it('numbers a double cannot hold keep every digit; the other types arrive as PostgreSQL renders them', async () => {
    const set = await callProcedure(driver, 'postgres', 'odd_changes', 0);
    const [big, small] = set.records;
    expect(big).toMatchObject({
      Id: '9007199254740993',
      Amount: '123456789012345678.123456',
      Price: '$12.50',
      Blob: '\\x00ff',
      Doc: '<a b="1">x</a>',
      Tags: ['a,b', 'c"d', null],
      Meta: { 'k.e/y': [1, { n: '12345678901234567890' }] },
      Ratio: 0.1,
    });
    expect((big as { Text: string }).Text).toHaveLength(1048576);
    expect(small).toMatchObject({ Id: 42, Amount: 1.5, Price: '$0.00', Blob: null, Doc: null, Tags: [], Meta: null, Text: 'é ✓ \\', Ratio: 1e300 });
  });
});
