/**
 * Type rules for `$filter`, checked on the AST before any SQL exists, so a mismatch is the same
 * 400 on every database (PostgreSQL, PGlite and SQL Server word or classify such errors
 * differently; PGlite even answered some with a 500). Column types come from the database's
 * catalogue (see ../column-types.ts); a column whose type is not known is not checked, but
 * literals always are (a literal has a known kind, and a function of a literal is refused).
 */
import type { BoolExpr, Literal, ValueExpr, ValueFunction } from './ast.js';
import { ODataError } from './errors.js';
import { atPositionOf } from './positions.js';

/** What a value is, as far as comparison rules care. */
export type ValueKind = 'string' | 'number' | 'boolean' | 'date' | 'datetime' | 'time' | 'guid';

/** db column -> its kind; columns that are absent are not checked. */
export type ColumnKinds = ReadonlyMap<string, ValueKind>;

type Kind = ValueKind | 'null' | 'unknown';

const ARTICLE: Readonly<Record<ValueKind, string>> = {
  string: 'a string', number: 'a number', boolean: 'a boolean', date: 'a date',
  datetime: 'a date-time', time: 'a time of day', guid: 'a GUID',
};

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function literalKind(l: Literal): Kind {
  switch (l.type) {
    case 'null': return 'null';
    case 'int':
    case 'decimal': return 'number';
    default: return l.type;
  }
}

/** Argument kinds each function accepts, and what it returns. */
const FUNCTIONS: Readonly<Record<ValueFunction, { readonly args: readonly ValueKind[]; readonly returns: ValueKind }>> = {
  tolower: { args: ['string'], returns: 'string' },
  toupper: { args: ['string'], returns: 'string' },
  trim: { args: ['string'], returns: 'string' },
  length: { args: ['string'], returns: 'number' },
  indexof: { args: ['string'], returns: 'number' },
  year: { args: ['date', 'datetime'], returns: 'number' },
  month: { args: ['date', 'datetime'], returns: 'number' },
  day: { args: ['date', 'datetime'], returns: 'number' },
  hour: { args: ['datetime', 'time'], returns: 'number' },
  minute: { args: ['datetime', 'time'], returns: 'number' },
  second: { args: ['datetime', 'time'], returns: 'number' },
  date: { args: ['date', 'datetime'], returns: 'date' },
  time: { args: ['datetime', 'time'], returns: 'time' },
};

function describe(e: ValueExpr): string {
  if (e.kind === 'member') return `'${e.name}'`;
  if (e.kind === 'call') return `${e.fn}(...)`;
  return e.type === 'string' ? 'a string value' : `the value ${String(e.value).slice(0, 40)}`;
}

export class FilterTypeChecker {
  /** `option`: how messages name the expression (`$filter`, `$apply: filter`). */
  constructor(private readonly kinds: ColumnKinds, private readonly option: string = '$filter') {}

  check(expr: BoolExpr): void {
    switch (expr.kind) {
      case 'logical':
        this.check(expr.left);
        this.check(expr.right);
        return;
      case 'not':
        this.check(expr.operand);
        return;
      case 'match':
        this.needsColumn(expr.operand, `${expr.fn}(...)`);
        this.expect(expr.operand, ['string'], `${expr.fn}(...)`);
        return;
      case 'in': {
        for (const item of expr.items) this.comparable(expr.operand, item);
        return;
      }
      case 'compare':
        this.comparable(expr.left, expr.right);
        return;
    }
  }

  private kindOf(e: ValueExpr): Kind {
    if (e.kind === 'literal') return literalKind(e);
    if (e.kind === 'member') return this.kinds.get(e.column) ?? 'unknown';
    const fn = FUNCTIONS[e.fn];
    // indexof(Name,'x'): only the search text may be a literal
    if (e.args[0]) this.needsColumn(e.args[0], `${e.fn}(...)`);
    e.args.forEach((arg, i) => {
      // indexof's second argument is a string too; every other function has one argument
      this.expect(arg, i === 0 ? fn.args : ['string'], `${e.fn}(...)`);
    });
    return fn.returns;
  }

  /**
   * A function of a literal is a constant the client can compute itself, and a database cannot
   * always type a parameter inside a function (PostgreSQL: "could not determine data type").
   */
  private needsColumn(e: ValueExpr, where: string): void {
    if (e.kind === 'literal') throw new ODataError(`${this.option}: ${where} needs a column or a function of one as its first argument, not a literal${atPositionOf(e)}`);
  }

  private expect(e: ValueExpr, allowed: readonly ValueKind[], where: string): void {
    const k = this.kindOf(e);
    if (k === 'unknown' || (allowed as readonly Kind[]).includes(k)) return;
    const needs = allowed.map((a) => ARTICLE[a]).join(' or ');
    if (k === 'null') throw new ODataError(`${this.option}: ${where} needs ${needs}, not null${atPositionOf(e)}`);
    throw new ODataError(`${this.option}: ${where} needs ${needs}, but ${describe(e)} is ${ARTICLE[k]}${atPositionOf(e)}`);
  }

  private comparable(left: ValueExpr, right: ValueExpr): void {
    const a = this.kindOf(left);
    const b = this.kindOf(right);
    if (compatible(a, b, left, right)) return;
    const col = left.kind === 'member' || right.kind !== 'member' ? left : right;
    const ka = col === left ? a : b;
    const kb = col === left ? b : a;
    throw new ODataError(
      `${this.option}: ${describe(col)} is ${ARTICLE[ka as ValueKind]} and cannot be compared with ${ARTICLE[kb as ValueKind]}${atPositionOf(col)}`,
    );
  }
}

function compatible(a: Kind, b: Kind, left: ValueExpr, right: ValueExpr): boolean {
  if (a === 'unknown' || b === 'unknown' || a === 'null' || b === 'null' || a === b) return true;
  const pair = new Set([a, b]);
  // a date column compared with a date-time literal (and back) is a well-defined comparison
  if (pair.has('date') && pair.has('datetime')) return true;
  // a GUID column compared with a quoted GUID
  if (pair.has('guid') && pair.has('string')) {
    const text = [left, right].find((e) => e.kind === 'literal' && e.type === 'string') as Literal | undefined;
    return text !== undefined && typeof text.value === 'string' && GUID.test(text.value);
  }
  return false;
}

/** Check a parsed filter against the known column kinds (throws ODataError, a 400). */
export function checkFilterTypes(expr: BoolExpr, kinds: ColumnKinds, option = '$filter'): void {
  new FilterTypeChecker(kinds, option).check(expr);
}
