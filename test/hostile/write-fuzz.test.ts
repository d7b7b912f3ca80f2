/**
 * Seeded, bounded fuzz of the SQL write path through the running server, on the embedded database
 * (PGlite) and a real PostgreSQL: generated POST/PUT/PATCH/MERGE/DELETE requests (single and batch)
 * against Inventory/Warehouses (Table mode) and Sales/Orders (stored procedure), with keys in the
 * path, in `?id=` or both, bodies of wrong JSON types, boundary numbers, number-like strings,
 * unicode edge cases, duplicate and case-variant keys, nesting, unknown properties. Invariants:
 * never a 5xx, always the spec's body, no database or runtime internals in it, and a refused write
 * (any 4xx) leaves both tables exactly as they were. The same seed sends the same requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgAndEmbeddedTestServer, type SqlTestServer } from '../sql/http-server.js';
import { sendAndCheck } from './fuzz-answer.js';
import { rng } from './odata-generator.js';

let server: SqlTestServer;

beforeAll(async () => {
  server = await startPgAndEmbeddedTestServer();
}, 180_000);
afterAll(async () => server?.close());

/** JSON value texts: every kind, boundaries, number-like strings, unicode edge cases. */
const VALUES = [
  '"x"', '""', '"  "', '"\\u0000"', '"\\ud800"', '"\\udc00x"', '"\\ud83d\\udea2"', '"日本"', '"\\u202e"', `"${'x'.repeat(300)}"`,
  '0', '-1', '1.5', '-0', '1e308', '1e-308', '2147483647', '2147483648', '9007199254740993', '1e400',
  'true', 'false', 'null', '[]', '{}', '[1,[2]]', '{"a":{"b":1}}', `${'['.repeat(40)}${']'.repeat(40)}`,
  '"12"', '" 12 "', '"1e3"', '"NaN"', '"Infinity"', '"0x10"', '"١٢"', '"2024-01-01"', '"2024-02-30"', '"2024-01-01T25:00:00Z"',
  '"NL-001"', '"DE-123"', '"x\'); DROP TABLE x; --"',
];
const TARGETS = [
  { path: 'Inventory/Warehouses', table: true, props: ['WarehouseId', 'Code', 'Name', 'WarehouseName', 'name', 'City', 'Capacity', 'ContactId', 'IsActive', 'Notes', 'Colour'] },
  { path: 'Sales/Orders', table: false, props: ['OrderId', 'CustomerId', 'OrderDate', 'Status', 'Total', 'TotalAmount', 'total', 'Colour'] },
];
const KEYS = ['1', '2', '3', '0', '-1', '999999', 'abc', '1.5', '2147483648', '99999999999999999999', '%20', '%C3%A9', 'true', '1e3'];
const METHODS = ['POST', 'PUT', 'PATCH', 'MERGE', 'DELETE'] as const;

class WriteGenerator {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = rng(seed);
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)] as T;
  }

  /** Mostly a plausible record (so writes get through) with zero to two hostile properties. */
  private object(props: readonly string[]): string {
    const base = props.includes('Code')
      ? [`"Code":"${this.pick(['NL', 'DE', 'FR'])}-${String(Math.floor(this.next() * 1000)).padStart(3, '0')}"`, '"Name":"fuzz"']
      : [`"CustomerId":${1 + Math.floor(this.next() * 50)}`, '"Status":"New"', `"Total":${Math.floor(this.next() * 1000) / 4}`];
    const plausible = this.next() < 0.6 ? base.filter(() => this.next() < 0.85) : [];
    const n = Math.floor(this.next() * (plausible.length > 0 ? 3 : 5));
    return `{${[...plausible, ...Array.from({ length: n }, () => `"${this.pick(props)}":${this.pick(VALUES)}`)].join(',')}}`;
  }

  private body(props: readonly string[], method: string): string | undefined {
    const r = this.next();
    if (method === 'DELETE') return r < 0.6 ? undefined : `[${this.pick(KEYS.slice(0, 7))},${this.pick(VALUES)}]`;
    if (r < 0.08) return `[${this.object(props)},${this.object(props)}]`;
    if (r < 0.12) return this.pick(['null', '[]', '"x"', '12', '', '{"Code":', '[null]']);
    return this.object(props);
  }

  request(): { method: (typeof METHODS)[number]; url: string; body?: string } {
    const t = this.pick(TARGETS);
    const method = this.pick(METHODS);
    const r = this.next();
    const key = this.pick(KEYS);
    const where = method === 'POST' && r < 0.8 ? '' : r < 0.55 ? `/${key}` : r < 0.75 ? `?id=${key}` : r < 0.85 ? `/${key}?id=${this.pick(KEYS)}` : '';
    const body = this.body(t.props, method);
    return { method, url: `${t.path}${where}`, ...(body === undefined ? {} : { body }) };
  }
}

async function snapshot(env: string): Promise<unknown> {
  const get = (url: string) => server.app.inject({ method: 'GET', url: `/api/${env}/${url}`, headers: { authorization: server.authorization } });
  const orders = '$apply=aggregate(OrderId with sum as Ids,CustomerId with sum as Customers,Total with sum as Totals,Status with countdistinct as Statuses,$count as Rows)';
  return [(await get('Inventory/Warehouses?$orderby=WarehouseId&$top=1000')).json(), (await get(`Sales/Orders?${orders}`)).json()];
}

describe('generated hostile writes: never a 5xx, never a leak, a refusal writes nothing', () => {
  it.each([
    ['embedded (PGlite)', 'demo', 11],
    ['PostgreSQL', 'pg', 12],
  ])('%s', async (_name, env, seed) => {
    const gen = new WriteGenerator(seed as number);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let before = await snapshot(env as string);
    for (let i = 0; i < 200 && failures.length < 10; i++) {
      const r = gen.request();
      const status = await sendAndCheck(server.app, server.authorization, env as string, r, failures);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const after = await snapshot(env as string);
      if (status >= 400 && JSON.stringify(after) !== JSON.stringify(before)) failures.push(`refused but written: ${r.method} ${r.url} ${r.body ?? ''} -> ${status}`);
      before = after;
    }
    expect(failures).toEqual([]);
    // the generator must get writes through, not only refusals
    expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0)).toBeGreaterThan(6);
  }, 120_000);
});
