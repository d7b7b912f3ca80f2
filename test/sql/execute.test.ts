/**
 * Every case of cases.ts executed on PGlite and on a real PostgreSQL: both must return the same
 * rows, and those rows must equal the in-memory evaluation of the same AST over the whole
 * table (filter, order, page, projection), so the SQL and the evaluator check each other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresCompiler } from '../../runtime/sql/compile/dialects/postgres.js';
import type { Row, SqlDriver } from '../../runtime/sql/drivers/driver.js';
import { filterRows } from '../../runtime/sql/odata/evaluate.js';
import { planRead } from '../../runtime/sql/plan.js';
import { SQL_CASES, type SqlCase } from './cases.js';
import { compileCase } from './compile-case.js';
import { openTestDatabases, type TestDatabases } from './databases.js';

let dbs: TestDatabases;
beforeAll(async () => {
  dbs = await openTestDatabases();
}, 120_000);
afterAll(async () => {
  await dbs?.close();
});

function cmp(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const fullScans = new Map<string, Row[]>();

/** All rows of the source (unfiltered, unpaged, every allowed column) and those the evaluator keeps. */
async function allRows(driver: SqlDriver, c: SqlCase) {
  const { input } = compileCase(c, postgresCompiler);
  const plan = planRead(input);
  const everything = postgresCompiler.compileRead({ ...plan, select: input.endpoint.columns.map((col) => ({ column: col.db, name: col.name })), where: null, orderBy: [], page: null, expand: [] });
  const key = `${driver.provider}|${everything.sql}|${JSON.stringify(everything.params)}`;
  let all = fullScans.get(key);
  if (!all) {
    all = await driver.query(everything.sql, everything.params);
    fullScans.set(key, all);
  }
  return { input, plan, all, filtered: filterRows(all, input.query.filter) };
}

/** Expected rows: all rows of the source, evaluated, sorted and paged in JS. */
async function oracle(driver: SqlDriver, c: SqlCase): Promise<Row[]> {
  const { input, plan, filtered: rows } = await allRows(driver, c);
  const nameOf = (column: string): string => input.endpoint.columns.find((col) => col.db === column)?.name ?? column;
  if (plan.orderBy.length > 0) {
    rows.sort((a, b) => {
      for (const o of plan.orderBy) {
        const d = cmp(a[nameOf(o.column)], b[nameOf(o.column)]);
        if (d !== 0) return o.direction === 'desc' ? -d : d;
      }
      return 0;
    });
  }
  const top = input.query.top ?? 100;
  return rows.slice(input.query.skip, input.query.skip + top).map((r) => Object.fromEntries(plan.select.map((s) => [s.name, r[s.name]])));
}

async function run(driver: SqlDriver, c: SqlCase) {
  const { list, count, input } = compileCase(c, postgresCompiler);
  const rows = await driver.query(list.sql, list.params);
  const total = count ? Number((await driver.query(count.sql, count.params))[0]?.['count']) : null;
  return { rows: rows.slice(0, input.query.top ?? 100), total, input };
}

describe.each(['pglite', 'postgres'] as const)('on %s', (which) => {
  it.each(SQL_CASES)('%s', async (_name, c) => {
    const driver = dbs[which];
    const { rows, total, input } = await run(driver, c);
    expect(rows.length).toBeGreaterThanOrEqual(c.minRows);
    const base = rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !input.query.expand.some((x) => x.name === k))));
    expect(base).toEqual(await oracle(driver, c));
    if (total !== null) expect(total).toBe((await allRows(driver, c)).filtered.length);
    for (const x of input.query.expand) {
      for (const r of rows) {
        const v = r[x.name];
        const rel = input.endpoint.relationships.find((rr) => rr.name === x.name)!;
        if (rel.multiplicity === 'ToOne') expect(Object.keys(v as object)).toEqual(x.select);
        else {
          expect(Array.isArray(v)).toBe(true);
          expect((v as unknown[]).length).toBeGreaterThan(0);
          for (const item of v as Row[]) expect(Object.keys(item)).toEqual(x.select);
        }
      }
    }
  });

  it('PGlite and PostgreSQL return identical rows for every case', async () => {
    if (which !== 'postgres') return;
    for (const [, c] of SQL_CASES) {
      const [a, b] = await Promise.all([run(dbs.pglite, c), run(dbs.postgres, c)]);
      expect(a.rows).toEqual(b.rows);
      expect(a.total).toEqual(b.total);
    }
  });
});
