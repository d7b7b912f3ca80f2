/**
 * The typed OData AST: produced by the parser, consumed by the SQL plan/compiler and (later)
 * by the in-memory evaluator. Members are already resolved against the allow-list:
 * `name` is the exposed name, `column` the database column.
 */

export type LiteralType =
  | 'null'
  | 'boolean'
  | 'int'
  | 'decimal'
  | 'string'
  | 'date'
  | 'datetime'
  | 'time'
  | 'guid';

export type Literal =
  | { readonly kind: 'literal'; readonly type: 'null'; readonly value: null }
  | { readonly kind: 'literal'; readonly type: 'boolean'; readonly value: boolean }
  /** Integers in the safe range; larger ones are `decimal`. */
  | { readonly kind: 'literal'; readonly type: 'int'; readonly value: number }
  /** Decimal text exactly as written (`12.50`, `-3`, `1e5`): no float rounding. */
  | { readonly kind: 'literal'; readonly type: 'decimal'; readonly value: string }
  | { readonly kind: 'literal'; readonly type: 'string'; readonly value: string }
  /** `YYYY-MM-DD` */
  | { readonly kind: 'literal'; readonly type: 'date'; readonly value: string }
  /** ISO 8601 with offset or `Z`, as written. */
  | { readonly kind: 'literal'; readonly type: 'datetime'; readonly value: string }
  /** `HH:MM[:SS[.fff]]` */
  | { readonly kind: 'literal'; readonly type: 'time'; readonly value: string }
  /** lower-case canonical 8-4-4-4-12 */
  | { readonly kind: 'literal'; readonly type: 'guid'; readonly value: string };

export interface Member {
  readonly kind: 'member';
  readonly name: string;
  readonly column: string;
}

export const COMPARE_OPS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'] as const;
export type CompareOp = (typeof COMPARE_OPS)[number];

export interface Compare {
  readonly kind: 'compare';
  readonly op: CompareOp;
  readonly left: ValueExpr;
  readonly right: ValueExpr;
}

export interface Logical {
  readonly kind: 'logical';
  readonly op: 'and' | 'or';
  readonly left: BoolExpr;
  readonly right: BoolExpr;
}

export interface Not {
  readonly kind: 'not';
  readonly operand: BoolExpr;
}

export interface In {
  readonly kind: 'in';
  readonly operand: ValueExpr;
  readonly items: readonly Literal[];
}

/** contains/startswith/endswith: the pattern is always a string literal. */
export interface Match {
  readonly kind: 'match';
  readonly fn: 'contains' | 'startswith' | 'endswith';
  readonly operand: ValueExpr;
  readonly pattern: string;
}

export const VALUE_FUNCTIONS = [
  'tolower', 'toupper', 'trim', 'length', 'indexof',
  'year', 'month', 'day', 'hour', 'minute', 'second', 'date', 'time',
] as const;
export type ValueFunction = (typeof VALUE_FUNCTIONS)[number];

export interface Call {
  readonly kind: 'call';
  readonly fn: ValueFunction;
  readonly args: readonly ValueExpr[];
}

export type ValueExpr = Literal | Member | Call;
export type BoolExpr = Compare | Logical | Not | In | Match;
export type FilterExpr = BoolExpr;

export interface OrderItem {
  readonly member: Member;
  readonly direction: 'asc' | 'desc';
}

export interface ExpandItem {
  /** Relationship name as declared (exact case). */
  readonly name: string;
  /** Exposed names of the target's allow-list; null = all of them. */
  readonly select: readonly string[] | null;
}

/** All query options of one read request, parsed and resolved. */
export interface ODataQuery {
  /** Resolved members in request order; null = no `$select` (all allowed columns). */
  readonly select: readonly Member[] | null;
  readonly filter: FilterExpr | null;
  readonly orderby: readonly OrderItem[];
  /** null = not given (the handler applies the default page size). */
  readonly top: number | null;
  readonly skip: number;
  readonly count: boolean;
  readonly expand: readonly ExpandItem[];
}
