/**
 * Seeded generator of hostile read requests for the fuzz suite: OData options built from the
 * grammar (mostly well-formed, so they reach the database) with wrong kinds, boundary values,
 * NUL and other control characters, unicode, SQL fragments, masked columns, huge literals and
 * plain noise mixed in; keys; QUERY bodies. The same seed gives the same requests.
 */

export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface Target {
  readonly path: string;
  readonly columns: readonly string[];
  readonly query: boolean;
  readonly byKey: boolean;
  readonly expand?: readonly string[];
}

/** The sample tree's SQL endpoints (compiled into the test server by test/sql/http-server.ts). */
export const TARGETS: readonly Target[] = [
  { path: 'Inventory/Products', columns: ['ProductId', 'Sku', 'Name', 'CategoryId', 'Price', 'Stock', 'CreatedAt'], query: true, byKey: true, expand: ['Category'] },
  { path: 'Sales/Orders', columns: ['OrderId', 'CustomerId', 'OrderDate', 'Status', 'Total'], query: true, byKey: true, expand: ['Customer'] },
  { path: 'Sales/Reports/OrderSummary', columns: ['OrderId', 'CustomerName', 'OrderDate', 'LineCount', 'Total'], query: false, byKey: false },
  { path: 'Customers', columns: ['CustomerId', 'Name', 'Email', 'Country'], query: true, byKey: true },
  { path: 'Inventory/Categories', columns: ['CategoryId', 'Name', 'Description'], query: false, byKey: true, expand: ['Products'] },
  { path: 'Inventory/ProductsByCategory/3', columns: ['ProductId', 'Sku', 'Name', 'Price'], query: false, byKey: false },
];

const LITERALS = [
  "'x'", "''", "'O''Brien'", "'%_['", "'a\u0000b'", "'\u0001'", "'日本'", "'🚀'", "'\uD800'", "'; DROP TABLE x; --'",
  `'${'a'.repeat(5000)}'`, '0', '-1', '2147483648', '9223372036854775808', '1.5', '-0.0', '1e308', '1e309', '99999999999999999999999999999999999999',
  'null', 'true', 'false', '2024-01-01', '2024-02-30', '2024-01-01T00:00:00Z', '2024-01-01T25:00:00Z', '0001-01-01', '9999-12-31T23:59:59+14:00',
  '08:30', '23:59:59.999', '0f8fad5b-d9cb-469f-a165-70867728950e',
];
const NOISE = ['(', ')', ',', "'", ' ', ';', '--', '/*', '*', '$', '%', '\\', '\u0000', 'é', 'eq', 'and', 'not', 'in', 'contains(', 'year('];
const OPS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];
const FNS = ['tolower', 'toupper', 'trim', 'length', 'year', 'month', 'day', 'hour', 'minute', 'second', 'date', 'time'];
const MATCH = ['contains', 'startswith', 'endswith'];

/** encodeURIComponent that also sends lone surrogates, as the invalid UTF-8 a hostile client would. */
function encode(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, '')) + '%ED%A0%80';
  }
}

export class RequestGenerator {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = rng(seed);
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)] as T;
  }

  private chance(p: number): boolean {
    return this.next() < p;
  }

  private column(t: Target): string {
    return this.chance(0.05) ? this.pick(['Nope', 'name', 'Cost', '__proto__', 'constructor']) : this.pick(t.columns);
  }

  private value(t: Target, depth: number): string {
    const r = this.next();
    if (r < 0.4) return this.column(t);
    if (r < 0.8 || depth > 2) return this.pick(LITERALS);
    const fn = this.pick(FNS);
    return `${fn}(${this.value(t, depth + 1)})`;
  }

  private bool(t: Target, depth: number): string {
    const r = this.next();
    if (depth < 3 && r < 0.2) return `${this.bool(t, depth + 1)} ${this.pick(['and', 'or'])} ${this.bool(t, depth + 1)}`;
    if (depth < 3 && r < 0.27) return `not (${this.bool(t, depth + 1)})`;
    if (r < 0.35) return `${this.pick(MATCH)}(${this.value(t, depth)},${this.pick(LITERALS)})`;
    if (r < 0.42) return `${this.column(t)} in (${this.pick(LITERALS)},${this.pick(LITERALS)})`;
    if (r < 0.47) return this.column(t);
    return `${this.value(t, depth)} ${this.pick(OPS)} ${this.value(t, depth)}`;
  }

  private noise(): string {
    return Array.from({ length: 1 + Math.floor(this.next() * 8) }, () => this.pick(NOISE)).join(this.chance(0.5) ? ' ' : '');
  }

  /** A `$filter` value: grammar-built, sometimes with noise spliced in. */
  filter(t: Target): string {
    const f = this.bool(t, 0);
    if (!this.chance(0.1)) return f;
    const at = Math.floor(this.next() * f.length);
    return f.slice(0, at) + this.noise() + f.slice(at);
  }

  private options(t: Target): Record<string, string> {
    const o: Record<string, string> = {};
    if (this.chance(0.8)) o['$filter'] = this.filter(t);
    if (this.chance(0.4)) o['$orderby'] = `${this.column(t)}${this.pick(['', ' asc', ' desc', ' sideways', ','])}`;
    if (this.chance(0.3)) o['$select'] = `${this.column(t)},${this.column(t)}`;
    if (this.chance(0.3)) o['$top'] = this.pick(['0', '1', '5', '1000', '1001', '-1', 'x', '1e3', '99999999999999999999']);
    if (this.chance(0.2)) o['$skip'] = this.pick(['0', '3', '-1', 'y', '1.5']);
    if (this.chance(0.1)) o['$count'] = this.pick(['true', 'false', 'yes']);
    if (t.expand && this.chance(0.1)) o['$expand'] = this.pick([...t.expand, `${t.expand[0]}($select=Name)`, 'Nope', `${t.expand[0]}(`]);
    return o;
  }

  /** One request: method, URL below `/api/{env}/`, and for QUERY the JSON body text. */
  request(): { method: 'GET' | 'QUERY'; url: string; body?: string } {
    const t = this.pick(TARGETS);
    const r = this.next();
    if (t.byKey && r < 0.12) {
      const key = this.pick(['7', '0', '-5', 'abc', '1.5', '2147483648', '%27', "a'b", '0f8fad5b-d9cb-469f-a165-70867728950e', 'é', '%E2%82%AC']);
      return { method: 'GET', url: `${t.path}/${key}${this.chance(0.3) ? `?$select=${encode(this.column(t))}` : ''}` };
    }
    const o = this.options(t);
    if (t.query && r < 0.3) {
      const body: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(o)) body[k.slice(1)] = k === '$top' || k === '$skip' ? (this.chance(0.7) ? Number(v) : v) : v;
      if (this.chance(0.05)) body['nope'] = 1;
      const text = this.chance(0.05) ? this.pick(['[1]', '"x"', 'null', '{"filter":', '{"filter":1}']) : JSON.stringify(body);
      return { method: 'QUERY', url: t.path, body: text };
    }
    const qs = Object.entries(o).map(([k, v]) => `${k}=${encode(v)}`).join('&');
    return { method: 'GET', url: `${t.path}${qs ? `?${qs}` : ''}` };
  }
}
