/**
 * RowFilter of an Authorization rule: an OData filter whose values may be `@claims.name`.
 *   parseRowFilter (build time, by the compiler): the OData parser of runtime/sql/odata, with each
 *     `@claims.name` standing in as a claim node; errors are ODataErrors with the position
 *     (rowFilterProblem: their message, for the build's diagnostic).
 *   bindRowFilter (per request): claims become literals (parameters, never SQL text); a claim the
 *     token lacks (or one that is not a string, number or boolean) makes the whole filter false:
 *     no rows, never all rows.
 *   typedRowFilter (per request, once the column types are known): a claim that no value of its
 *     column can equal (a boolean against a number, text that is not a number's own text against a
 *     number, a number beyond an integer column, ...) makes the filter false too; a number's own text
 *     against a number column becomes that number, a number against a text column its own text.
 */
import type { BoolExpr, FilterExpr, Literal, Member, ValueExpr } from '../../sql/odata/ast.js';
import { ODataError } from '../../sql/odata/errors.js';
import { parseFilter, type ColumnMap } from '../../sql/odata/filter-parser.js';
import type { ColumnKinds } from '../../sql/odata/type-check.js';
import { columnBound } from '../../sql/column-bounds.js';
import { asColumnValue } from './claim-values.js';

export type { ColumnMap } from '../../sql/odata/filter-parser.js';

export interface ClaimValue {
  readonly kind: 'claim';
  readonly name: string;
}

const OPTION = 'RowFilter';
const CLAIM = /@claims\.([A-Za-z_][A-Za-z0-9_]*)/y;
/** Marks a string literal standing for a claim while the ordinary parser runs (never in a real literal: refused below). */
const MARK = '\u0001';

/** `@claims.x` outside string literals replaced by `'<MARK>x'` padded to the same length (positions stay true). */
function markClaims(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; ) {
    const c = text[i] as string;
    if (c === "'") inString = !inString;
    if (!inString && c === '@') {
      CLAIM.lastIndex = i;
      const m = CLAIM.exec(text);
      if (!m) throw ODataError.at(OPTION, "expected '@claims.<name>'", i + 1);
      const literal = `'${MARK}${m[1] as string}'`;
      out += literal + ' '.repeat(m[0].length - literal.length);
      i += m[0].length;
      continue;
    }
    if (inString && c === MARK) throw ODataError.at(OPTION, 'a string must not contain the character U+0001', i + 1);
    out += c;
    i += 1;
  }
  return out;
}

function claimOf(value: ValueExpr): ClaimValue | null {
  return value.kind === 'literal' && value.type === 'string' && value.value.startsWith(MARK) ? { kind: 'claim', name: value.value.slice(1) } : null;
}

type Mapper = (value: ValueExpr) => ValueExpr;

function mapValues(e: BoolExpr, map: Mapper): BoolExpr {
  switch (e.kind) {
    case 'logical':
      return { ...e, left: mapValues(e.left, map), right: mapValues(e.right, map) };
    case 'not':
      return { ...e, operand: mapValues(e.operand, map) };
    case 'compare':
      return { ...e, left: map(e.left), right: map(e.right) };
    case 'in':
      return { ...e, operand: map(e.operand), items: e.items.map((item) => map(item) as Literal) };
    case 'match':
      if (e.pattern.startsWith(MARK)) throw new ODataError(`${OPTION}: @claims cannot be the pattern of ${e.fn}()`);
      return { ...e, operand: map(e.operand) };
  }
}

function deepMap(value: ValueExpr, map: Mapper): ValueExpr {
  if (value.kind === 'call') return map({ ...value, args: value.args.map((arg) => deepMap(arg, map)) });
  return map(value);
}

/** Build time: the AST with claim nodes (as JSON, for the manifest). */
export function parseRowFilter(text: string, columns: ColumnMap): FilterExpr {
  let parsed: FilterExpr;
  try {
    parsed = parseFilter(markClaims(text), columns);
  } catch (error) {
    if (error instanceof ODataError && error.message.startsWith('$filter:')) throw new ODataError(`${OPTION}:${error.message.slice('$filter:'.length)}`);
    throw error;
  }
  return mapValues(parsed, (value) => deepMap(value, (v) => (claimOf(v) as unknown as ValueExpr) ?? v));
}

/** Build time, as a diagnostic: why parseRowFilter refuses `text` (the runtime's own message), or null. */
export function rowFilterProblem(text: string, columns: ColumnMap): string | null {
  try {
    parseRowFilter(text, columns);
    return null;
  } catch (error) {
    if (error instanceof ODataError) return error.message;
    throw error;
  }
}

/** The claim names a compiled RowFilter uses. */
export function claimNames(ast: FilterExpr): string[] {
  const names = new Set<string>();
  mapValues(ast, (value) =>
    deepMap(value, (v) => {
      if ((v as unknown as ClaimValue).kind === 'claim') names.add((v as unknown as ClaimValue).name);
      return v;
    }),
  );
  return [...names].sort();
}

function claimLiteral(value: unknown): Literal | null {
  if (typeof value === 'string') return { kind: 'literal', type: 'string', value };
  if (typeof value === 'boolean') return { kind: 'literal', type: 'boolean', value };
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (Number.isSafeInteger(value)) return { kind: 'literal', type: 'int', value };
    // a whole number beyond 2^53 is not the number the token carried (JSON parsing rounded it), and
    // one written with an exponent (1e300, 1e-7) is no exact value a column compares the same everywhere
    const text = String(value);
    return Number.isInteger(value) || text.includes('e') ? null : { kind: 'literal', type: 'decimal', value: text };
  }
  return null;
}

/** Always false, NULLs included (`c IS NULL AND c IS NOT NULL`): the filter of a token lacking a claim. */
export function noRows(member: Member): BoolExpr {
  const isNull: Literal = { kind: 'literal', type: 'null', value: null };
  return {
    kind: 'logical',
    op: 'and',
    left: { kind: 'compare', op: 'eq', left: member, right: isNull },
    right: { kind: 'compare', op: 'ne', left: member, right: isNull },
  };
}

class MissingClaim extends Error {}

/** Per request: claims bound as literals; null claims / missing claims: noRows(anyColumn). */
export function bindRowFilter(ast: FilterExpr, claims: Readonly<Record<string, unknown>>, anyColumn: Member): FilterExpr {
  try {
    return mapValues(ast, (value) =>
      deepMap(value, (v) => {
        const claim = v as unknown as ClaimValue;
        if (claim.kind !== 'claim') return v;
        const literal = Object.hasOwn(claims, claim.name) ? claimLiteral(claims[claim.name]) : null;
        if (literal === null) throw new MissingClaim();
        return literal;
      }),
    );
  } catch (error) {
    if (error instanceof MissingClaim) return noRows(anyColumn);
    throw error;
  }
}

class NeverEqual extends Error {}

/**
 * The bound RowFilter with each value compared with a column as a value of the column's kind, or no
 * rows when a value can never equal one of the column (asColumnValue): SQL Server turned `true` into
 * 1 (customer 1's rows), Babelfish compared every non-zero number as true (every row), and text that
 * is not a number was the database's 400 about a `$filter` the caller never sent. The whole filter
 * is false, never only the comparison (under `not` that would be every row). Columns whose kind is
 * not known, and comparisons of functions, are left to the database.
 */
export function typedRowFilter(bound: FilterExpr, kinds: ColumnKinds): FilterExpr {
  const typed = (member: ValueExpr, value: ValueExpr): ValueExpr => {
    if (member.kind !== 'member' || value.kind !== 'literal') return value;
    const kind = kinds.get(member.column);
    if (kind === undefined) return value;
    const fitted = asColumnValue(value, kind, columnBound(kinds, member.column));
    if (fitted === null) throw new NeverEqual();
    return fitted;
  };
  const walk = (e: BoolExpr): BoolExpr => {
    switch (e.kind) {
      case 'logical':
        return { ...e, left: walk(e.left), right: walk(e.right) };
      case 'not':
        return { ...e, operand: walk(e.operand) };
      case 'compare':
        return { ...e, left: typed(e.right, e.left), right: typed(e.left, e.right) };
      case 'in':
        return { ...e, items: e.items.map((item) => typed(e.operand, item) as Literal) };
      default:
        return e;
    }
  };
  try {
    return walk(bound as BoolExpr);
  } catch (error) {
    if (error instanceof NeverEqual) return noRows(firstMember(bound) as Member);
    throw error;
  }
}

/** The first column the filter compares (the column of its `noRows`). */
function firstMember(ast: FilterExpr): Member | null {
  let found: Member | null = null;
  mapValues(ast, (value) =>
    deepMap(value, (v) => {
      if (found === null && v.kind === 'member') found = v;
      return v;
    }),
  );
  return found;
}
