/**
 * Keyset paging below HTTP: the expected SQL per dialect (no database), the `$skiptoken` seal
 * (tampered, foreign and truncated tokens refused), and walks through every page of a table
 * whose ordering column holds NULLs on PGlite and a real PostgreSQL: ascending, descending and
 * mixed directions must visit exactly the rows of the unpaged order, once each; so must an order
 * by date-times a microsecond apart (the token keeps the exact text of each value).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mssqlCompiler } from '../../runtime/sql/compile/dialects/mssql.js';
import { postgresCompiler } from '../../runtime/sql/compile/dialects/postgres.js';
import { keysetPlan, takeKeysetValues } from '../../runtime/sql/keyset.js';
import { SEALED_KEPT, SkipTokenSealer, type KeysetValue } from '../../runtime/sql/keyset-token.js';
import type { OrderColumn, ReadPlan } from '../../runtime/sql/plan.js';
import { showParams } from './compile-case.js';
import { openTestDatabases, type TestDatabases } from './databases.js';

const base = (orderBy: OrderColumn[], fetch = 3): ReadPlan => ({
  source: { schema: 'inventory', object: 'Products' }, args: null,
  select: [{ column: 'ProductId', name: 'ProductId' }, { column: 'UnitPrice', name: 'Price' }],
  where: null, orderBy, page: { skip: 0, fetch }, expand: [],
});
const KEY: OrderColumn = { column: 'ProductId', direction: 'asc' };
const PRICE_DESC: OrderColumn = { column: 'UnitPrice', direction: 'desc' };
const PRICE_ASC: OrderColumn = { column: 'UnitPrice', direction: 'asc' };
const SELECT_PG = 'SELECT "t"."ProductId", "t"."UnitPrice" AS "Price"';
const SELECT_MS = 'SELECT [t].[ProductId], [t].[UnitPrice] AS [Price]';

const CASES: ReadonlyArray<readonly [string, { plan: ReadPlan; postgres: { sql: string; params: string[] }; mssql: { sql: string; params: string[] } }]> = [
  ['first page: the ordering values selected, no condition', {
    plan: keysetPlan(base([KEY]), 'ProductId', null),
    postgres: { sql: `${SELECT_PG}, CAST("t"."ProductId" AS text) AS "__wharf_k0" FROM "inventory"."Products" AS "t" ORDER BY "t"."ProductId" ASC LIMIT $1 OFFSET $2`, params: ['int:3', 'int:0'] },
    mssql: { sql: `${SELECT_MS}, [t].[ProductId] AS [__wharf_k0] FROM [inventory].[Products] AS [t] ORDER BY [t].[ProductId] ASC OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY`, params: ['int:0', 'int:3'] },
  }],
  ['after a token, key order: one comparison', {
    plan: keysetPlan(base([KEY]), 'ProductId', [5000]),
    postgres: { sql: `${SELECT_PG}, CAST("t"."ProductId" AS text) AS "__wharf_k0" FROM "inventory"."Products" AS "t" WHERE "t"."ProductId" > $1 ORDER BY "t"."ProductId" ASC LIMIT $2 OFFSET $3`, params: ['int:5000', 'int:3', 'int:0'] },
    mssql: { sql: `${SELECT_MS}, [t].[ProductId] AS [__wharf_k0] FROM [inventory].[Products] AS [t] WHERE (([t].[ProductId] > @p1)) ORDER BY [t].[ProductId] ASC OFFSET @p2 ROWS FETCH NEXT @p3 ROWS ONLY`, params: ['int:5000', 'int:0', 'int:3'] },
  }],
  ['one direction: a row-value comparison on PostgreSQL, expanded on SQL Server', {
    plan: keysetPlan(base([PRICE_DESC, { column: 'ProductId', direction: 'desc' }]), 'ProductId', [12.5, 77]),
    postgres: { sql: `${SELECT_PG}, CAST("t"."UnitPrice" AS text) AS "__wharf_k0", CAST("t"."ProductId" AS text) AS "__wharf_k1" FROM "inventory"."Products" AS "t" WHERE ("t"."UnitPrice", "t"."ProductId") < ($1, $2) ORDER BY "t"."UnitPrice" DESC, "t"."ProductId" DESC LIMIT $3 OFFSET $4`, params: ['decimal:12.5', 'int:77', 'int:3', 'int:0'] },
    mssql: { sql: `${SELECT_MS}, [t].[UnitPrice] AS [__wharf_k0], [t].[ProductId] AS [__wharf_k1] FROM [inventory].[Products] AS [t] WHERE ((([t].[UnitPrice] < @p1 OR [t].[UnitPrice] IS NULL)) OR ([t].[UnitPrice] = @p1 AND [t].[ProductId] < @p2)) ORDER BY [t].[UnitPrice] DESC, [t].[ProductId] DESC OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY`, params: ['decimal:12.5', 'int:77', 'int:0', 'int:3'] },
  }],
  ['ascending on PostgreSQL: rows with a NULL in the ordering column come after', {
    plan: keysetPlan(base([PRICE_ASC, KEY]), 'ProductId', [12.5, 77]),
    postgres: { sql: `${SELECT_PG}, CAST("t"."UnitPrice" AS text) AS "__wharf_k0", CAST("t"."ProductId" AS text) AS "__wharf_k1" FROM "inventory"."Products" AS "t" WHERE (("t"."UnitPrice", "t"."ProductId") > ($1, $2) OR ("t"."UnitPrice" IS NULL)) ORDER BY "t"."UnitPrice" ASC, "t"."ProductId" ASC LIMIT $3 OFFSET $4`, params: ['decimal:12.5', 'int:77', 'int:3', 'int:0'] },
    mssql: { sql: `${SELECT_MS}, [t].[UnitPrice] AS [__wharf_k0], [t].[ProductId] AS [__wharf_k1] FROM [inventory].[Products] AS [t] WHERE (([t].[UnitPrice] > @p1) OR ([t].[UnitPrice] = @p1 AND [t].[ProductId] > @p2)) ORDER BY [t].[UnitPrice] ASC, [t].[ProductId] ASC OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY`, params: ['decimal:12.5', 'int:77', 'int:0', 'int:3'] },
  }],
  ['mixed directions, a NULL last value: the expanded form', {
    plan: keysetPlan(base([PRICE_DESC, KEY]), 'ProductId', [null, 77]),
    postgres: { sql: `${SELECT_PG}, CAST("t"."UnitPrice" AS text) AS "__wharf_k0", CAST("t"."ProductId" AS text) AS "__wharf_k1" FROM "inventory"."Products" AS "t" WHERE (("t"."UnitPrice" IS NOT NULL) OR ("t"."UnitPrice" IS NULL AND "t"."ProductId" > $1)) ORDER BY "t"."UnitPrice" DESC, "t"."ProductId" ASC LIMIT $2 OFFSET $3`, params: ['int:77', 'int:3', 'int:0'] },
    mssql: { sql: `${SELECT_MS}, [t].[UnitPrice] AS [__wharf_k0], [t].[ProductId] AS [__wharf_k1] FROM [inventory].[Products] AS [t] WHERE (([t].[UnitPrice] IS NULL AND [t].[ProductId] > @p1)) ORDER BY [t].[UnitPrice] DESC, [t].[ProductId] ASC OFFSET @p2 ROWS FETCH NEXT @p3 ROWS ONLY`, params: ['int:77', 'int:0', 'int:3'] },
  }],
];

describe.each([['postgres', postgresCompiler], ['mssql', mssqlCompiler]] as const)('%s keyset SQL', (dialect, compiler) => {
  it.each(CASES)('%s', (_name, c) => {
    const q = compiler.compileRead(c.plan);
    expect({ sql: q.sql, params: showParams(q.params) }).toEqual(c[dialect]);
  });
});

describe('$skiptoken', () => {
  const sealer = new SkipTokenSealer('a test secret of at least thirty-two characters');
  const token = sealer.seal([12.5, 'x', null, 77], 'sql:Inventory/ProductPages\u0000Price desc');

  it('opens for the same endpoint and ordering', () => {
    expect(sealer.open(token, 'sql:Inventory/ProductPages\u0000Price desc', 4)).toEqual([12.5, 'x', null, 77]);
  });

  it.each([
    ['another ordering', token, 'sql:Inventory/ProductPages\u0000Price asc'],
    ['another endpoint', token, 'sql:Inventory/Products\u0000Price desc'],
    ['one character changed', token.slice(0, 20) + (token[20] === 'A' ? 'B' : 'A') + token.slice(21), 'sql:Inventory/ProductPages\u0000Price desc'],
    ['truncated', token.slice(0, 30), 'sql:Inventory/ProductPages\u0000Price desc'],
    ['not base64url', `${token}=`, 'sql:Inventory/ProductPages\u0000Price desc'],
  ])('refuses a token for %s', (_name, t, binding) => {
    expect(() => sealer.open(t, binding, 4)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('refuses a token sealed with another key', () => {
    expect(() => new SkipTokenSealer('another secret of at least thirty-two characters').open(token, 'sql:Inventory/ProductPages\u0000Price desc', 4)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('hides the values (a masked key stays masked)', () => {
    // the plaintext is JSON; random ciphertext may hold any two bytes, but not this whole text
    const bytes = Buffer.from(token, 'base64url').toString('latin1');
    expect(bytes).not.toContain('[12.5,"x",null,77]');
    expect(bytes).not.toContain('"x"');
    expect(token).not.toContain(Buffer.from('[12.5,"x",null,77]').toString('base64url').slice(0, 12));
  });

  it('gives a page read again the token sealed the first time, without encrypting again', () => {
    const own = new SkipTokenSealer('a test secret of at least thirty-two characters');
    const binding = 'sql:Inventory/ProductPages\u0000Price desc';
    const first = own.seal([12.5, 77], binding);
    expect(own.seal([12.5, 77], binding)).toBe(first);
    expect(own.encryptions).toBe(1);
    // other values, or the same values for another binding (even one that would run into them), are sealed anew
    const others = [own.seal([12.5, 78], binding), own.seal([12.5, 77], `${binding} `), own.seal([77], `${binding}[12.5,`)];
    expect(own.encryptions).toBe(4);
    expect(new Set([first, ...others]).size).toBe(4);
    expect(own.open(others[1]!, `${binding} `, 2)).toEqual([12.5, 77]);
    expect(own.open(others[2]!, `${binding}[12.5,`, 1)).toEqual([77]);
  });

  it('keeps at most SEALED_KEPT tokens, and a token made after the map started again still opens', () => {
    const own = new SkipTokenSealer('');
    for (let i = 0; i <= SEALED_KEPT; i++) own.seal([i], 'b');
    expect(own.encryptions).toBe(SEALED_KEPT + 1);
    const again = own.seal([0], 'b'); // dropped when the map started again: sealed anew
    expect(own.encryptions).toBe(SEALED_KEPT + 2);
    expect(own.open(again, 'b', 1)).toEqual([0]);
  });
});

describe('keyset walks over a column with NULLs', () => {
  let dbs: TestDatabases;
  const table = `keyset_${process.pid}_${Date.now()}`;
  beforeAll(async () => {
    dbs = await openTestDatabases();
    for (const d of [dbs.pglite, dbs.postgres]) {
      await d.query(`CREATE TABLE public."${table}" ("Id" integer PRIMARY KEY, "Score" integer, "At" timestamptz)`, []);
      // At: seven instants one microsecond apart, inside one millisecond
      await d.query(`INSERT INTO public."${table}" SELECT i, CASE WHEN i % 4 = 0 THEN NULL ELSE i % 5 END, timestamptz '2024-01-01 00:00:00.000100+00' + (i % 7) * interval '1 microsecond' FROM generate_series(1, 37) AS i`, []);
    }
  }, 120_000);
  afterAll(async () => {
    for (const d of [dbs?.pglite, dbs?.postgres]) await d?.query(`DROP TABLE IF EXISTS public."${table}"`, []);
    await dbs?.close();
  });

  const plan = (order: OrderColumn[], fetch: number): ReadPlan => ({
    source: { schema: 'public', object: table }, args: null,
    select: [{ column: 'Id', name: 'Id' }, { column: 'Score', name: 'Score' }], where: null, orderBy: order, page: fetch === 0 ? null : { skip: 0, fetch }, expand: [],
  });

  describe.each(['pglite', 'postgres'] as const)('on %s', (which) => {
    it.each([
      ['Score asc', [{ column: 'Score', direction: 'asc' }, { column: 'Id', direction: 'asc' }]],
      ['Score desc', [{ column: 'Score', direction: 'desc' }, { column: 'Id', direction: 'desc' }]],
      ['Score desc, Id asc', [{ column: 'Score', direction: 'desc' }, { column: 'Id', direction: 'asc' }]],
      ['Score asc, Id desc', [{ column: 'Score', direction: 'asc' }, { column: 'Id', direction: 'desc' }]],
      ['At desc (microseconds apart)', [{ column: 'At', direction: 'desc' }, { column: 'Id', direction: 'desc' }]],
      ['At asc, Id desc (microseconds apart)', [{ column: 'At', direction: 'asc' }, { column: 'Id', direction: 'desc' }]],
    ] as const)('%s, 5 rows a page: every row once, in the unpaged order', async (_name, order) => {
      const driver = dbs[which];
      const all = plan([...order], 0);
      const everything = (await driver.query(postgresCompiler.compileRead(all).sql, [])).map((r) => r['Id']);
      const seen: unknown[] = [];
      let values: KeysetValue[] | null = null;
      for (let page = 0; page < 20; page++) {
        const q = postgresCompiler.compileRead(keysetPlan(plan([...order], 5), 'Id', values));
        const rows = (await driver.query(q.sql, q.params)).slice(0, 5);
        if (rows.length === 0) break;
        values = takeKeysetValues(rows, order.length);
        seen.push(...rows.map((r) => r['Id']));
      }
      expect(seen).toEqual(everything);
      expect(seen.length).toBe(37);
    });
  });
});

