/**
 * In-memory evaluation of the filter AST over plain rows (keyed by exposed name), with SQL's
 * three-valued logic (null = unknown, filtered out). Used as the oracle in the SQL tests and,
 * later, for Static endpoints. Date-times compare by instant (UTC), dates as UTC midnight,
 * strings by code unit (PostgreSQL "C" collation), LIKE functions case-sensitively.
 */
import type { BoolExpr, CompareOp, Literal, ValueExpr } from './ast.js';

export type Row = Readonly<Record<string, unknown>>;
type Value = string | number | boolean | null | { readonly instant: number } | { readonly clock: number };

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

function instant(text: string): number {
  return Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
}

function clock(text: string): number {
  const [h = 0, m = 0, s = 0] = text.split(':').map(Number);
  return h * 3600 + m * 60 + s;
}

function literal(l: Literal): Value {
  switch (l.type) {
    case 'decimal': return Number(l.value);
    case 'date': case 'datetime': return { instant: instant(l.value) };
    case 'time': return { clock: clock(l.value) };
    default: return l.value;
  }
}

function asInstant(v: Value): number | null {
  if (v !== null && typeof v === 'object' && 'instant' in v) return v.instant;
  if (typeof v === 'string' && ISO.test(v)) return instant(v);
  return null;
}

function fromRow(v: unknown): Value {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Date) return { instant: v.getTime() };
  return String(v);
}

function value(e: ValueExpr, row: Row): Value {
  switch (e.kind) {
    case 'literal': return literal(e);
    case 'member': return fromRow(row[e.name]);
    case 'call': {
      const args = e.args.map((a) => value(a, row));
      const x = args[0] ?? null;
      if (x === null) return null;
      const s = String(x);
      switch (e.fn) {
        case 'tolower': return s.toLowerCase();
        case 'toupper': return s.toUpperCase();
        case 'trim': return s.trim();
        case 'length': return [...s].length;
        case 'indexof': return args[1] === null ? null : s.indexOf(String(args[1]));
        default: {
          const t = asInstant(x);
          if (t === null) return null;
          const d = new Date(t);
          switch (e.fn) {
            case 'year': return d.getUTCFullYear();
            case 'month': return d.getUTCMonth() + 1;
            case 'day': return d.getUTCDate();
            case 'hour': return d.getUTCHours();
            case 'minute': return d.getUTCMinutes();
            case 'second': return d.getUTCSeconds();
            case 'date': return { instant: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) };
            case 'time': return { clock: d.getUTCHours() * 3600 + d.getUTCMinutes() * 60 + d.getUTCSeconds() + d.getUTCMilliseconds() / 1000 };
          }
        }
      }
    }
  }
  return null;
}

function key(v: Exclude<Value, null>, other: Exclude<Value, null>): number | string | boolean {
  if (typeof v === 'object') return 'instant' in v ? v.instant : v.clock;
  const t = asInstant(other);
  if (t !== null && typeof v === 'string') return asInstant(v) ?? v;
  if (typeof other === 'number' && typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return v;
}

function compare(op: CompareOp, a: Value, b: Value): boolean | null {
  // a NULL value (not the `null` literal, handled as IS NULL by the caller) makes it unknown
  if (a === null || b === null) return null;
  const x = key(a, b);
  const y = key(b, a);
  switch (op) {
    case 'eq': return x === y;
    case 'ne': return x !== y;
    case 'gt': return x > y;
    case 'ge': return x >= y;
    case 'lt': return x < y;
    case 'le': return x <= y;
  }
}

/** true / false / null (unknown). */
export function evaluate(e: BoolExpr, row: Row): boolean | null {
  switch (e.kind) {
    case 'compare': {
      const nullLiteral = (v: ValueExpr): boolean => v.kind === 'literal' && v.type === 'null';
      if (nullLiteral(e.left) || nullLiteral(e.right)) {
        const other = value(nullLiteral(e.left) ? e.right : e.left, row);
        return e.op === 'eq' ? other === null : other !== null;
      }
      return compare(e.op, value(e.left, row), value(e.right, row));
    }
    case 'logical': {
      const l = evaluate(e.left, row);
      // short-circuit where the left side already decides (same three-valued result)
      if (e.op === 'and' ? l === false : l === true) return l;
      const r = evaluate(e.right, row);
      if (e.op === 'and') return l === false || r === false ? false : l === null || r === null ? null : true;
      return l === true || r === true ? true : l === null || r === null ? null : false;
    }
    case 'not': {
      const v = evaluate(e.operand, row);
      return v === null ? null : !v;
    }
    case 'in': {
      const v = value(e.operand, row);
      if (v === null) return null;
      return e.items.some((i) => compare('eq', v, literal(i)) === true);
    }
    case 'match': {
      const v = value(e.operand, row);
      if (v === null) return null;
      const s = String(v);
      return e.fn === 'contains' ? s.includes(e.pattern) : e.fn === 'startswith' ? s.startsWith(e.pattern) : s.endsWith(e.pattern);
    }
  }
}

export function filterRows<R extends Row>(rows: readonly R[], e: BoolExpr | null): R[] {
  return e ? rows.filter((r) => evaluate(e, r) === true) : [...rows];
}
