/**
 * Base SQL compiler: ReadPlan/CountPlan -> { sql, params }. Dialects override the small set of
 * hooks that differ (quoting, placeholders, paging, functions, TVF calls, $expand).
 * Values only ever become parameters; identifiers only come from the plan (i.e. the model).
 */
import type { BoolExpr, CompareOp, Literal, ValueExpr, ValueFunction } from '../odata/ast.js';
import type { ColumnRef, CountPlan, ExpandPlan, FunctionArg, ObjectRef, OrderColumn, ReadPlan, TypedValue } from '../plan.js';
import type { AggregatePlan } from '../aggregate-plan.js';
import type { BatchDeletePlan, BatchInsertPlan } from '../batch-plan.js';
import { aggregateCall, aggregateTail } from './aggregate-sql.js';
import { keysetSql } from './keyset-sql.js';
import type { DeletePlan, InsertPlan, KeyMatch, ProcedurePlan, UpdatePlan } from '../write-plan.js';
import type { DialectName } from './dialect-name.js';

export interface CompiledQuery {
  readonly sql: string;
  readonly params: readonly TypedValue[];
  /** Output columns that arrive as JSON text and must be parsed (mssql FOR JSON). */
  readonly jsonColumns: readonly string[];
}

/** Per-compilation state (the compiler itself is stateless and shared). */
export class CompileContext {
  readonly params: TypedValue[] = [];
  readonly jsonColumns: string[] = [];
}

/** Alias of the base table/view/function in list queries; `$expand` subqueries use `e`. */
export const BASE_ALIAS = 't';

const COMPARE_SQL: Readonly<Record<CompareOp, string>> = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' };

export abstract class SqlCompiler {
  abstract readonly dialect: DialectName;

  /** Quote one identifier. */
  abstract quoteId(name: string): string;
  /** Placeholder for the n-th (1-based) parameter. */
  protected abstract placeholder(n: number): string;
  /** ORDER BY + paging tail of a list query. */
  protected abstract pagingTail(plan: ReadPlan, ctx: CompileContext): string;
  /** A value function applied to compiled arguments. */
  protected abstract valueFunction(fn: ValueFunction, args: readonly string[]): string;
  /** A table-valued function call as a FROM item. */
  protected abstract functionSource(ref: ObjectRef, args: readonly FunctionArg[], ctx: CompileContext): string;
  /** One `$expand` column expression (without alias). */
  protected abstract expandColumn(exp: ExpandPlan, outerAlias: string, ctx: CompileContext): string;
  /** SQL Server `OUTPUT INSERTED.x AS y` (before VALUES / WHERE); '' where RETURNING is used. */
  protected abstract outputClause(columns: readonly ColumnRef[], pseudo: 'INSERTED' | 'DELETED'): string;
  /** PostgreSQL `RETURNING x AS y` (at the end); '' where OUTPUT is used. */
  protected abstract returningClause(columns: readonly ColumnRef[]): string;
  /** A stored procedure (or function) call with named arguments. */
  protected abstract procedureCall(plan: ProcedurePlan, ctx: CompileContext): string;
  /**
   * `(SELECT COUNT(*) ...)` of the rows of `table` matching `where`, read with row locks held to the
   * end of the statement: a row another transaction deletes meanwhile is waited for and then not
   * counted (a plain read would count the version the statement started with).
   */
  protected abstract lockedCount(table: string, where: string, keyColumn: string): string;
  /** Characters that must be escaped inside a LIKE pattern besides the escape char itself. */
  protected likeSpecials = '%_';

  compileRead(plan: ReadPlan): CompiledQuery {
    const ctx = new CompileContext();
    const t = this.quoteId(BASE_ALIAS);
    const cols = plan.select.map((c) => this.selectItem(c, t));
    for (const exp of plan.expand) cols.push(`${this.expandColumn(exp, t, ctx)} AS ${this.quoteId(exp.name)}`);
    let sql = `SELECT ${cols.join(', ')} FROM ${this.source(plan.source, plan.args, ctx)} AS ${t}`;
    const conditions: string[] = [];
    if (plan.where) conditions.push(this.bool(plan.where, ctx));
    if (plan.keyset) {
      const k = plan.keyset;
      conditions.push(keysetSql(k, { dialect: this.dialect, column: (c) => `${t}.${this.quoteId(c)}`, param: (i) => this.param(ctx, k.values[i] as TypedValue) }));
    }
    if (conditions.length > 0) sql += ` WHERE ${conditions.join(' AND ')}`;
    const tail = this.pagingTail(plan, ctx);
    if (tail) sql += ` ${tail}`;
    return { sql, params: ctx.params, jsonColumns: ctx.jsonColumns };
  }

  compileCount(plan: CountPlan): CompiledQuery {
    const ctx = new CompileContext();
    let sql = `SELECT COUNT(*) AS ${this.quoteId('count')} FROM ${this.source(plan.source, plan.args, ctx)}`;
    if (plan.where) sql += ` WHERE ${this.bool(plan.where, ctx)}`;
    return { sql, params: ctx.params, jsonColumns: [] };
  }

  /** `$apply` (aggregate-plan.ts): grouping columns by exposed name, aggregates by alias. */
  compileAggregate(plan: AggregatePlan): CompiledQuery {
    const ctx = new CompileContext();
    const t = this.quoteId(BASE_ALIAS);
    const cols = plan.groupBy.map((c) => this.selectItem(c, t));
    for (const a of plan.aggregates) {
      cols.push(`${aggregateCall(this.dialect, a, a.column === null ? '' : `${t}.${this.quoteId(a.column)}`)} AS ${this.quoteId(a.alias)}`);
    }
    let sql = `SELECT ${cols.join(', ')} FROM ${this.objectName(plan.source)} AS ${t}`;
    if (plan.where) sql += ` WHERE ${this.bool(plan.where, ctx)}`;
    if (plan.groupBy.length > 0) sql += ` GROUP BY ${plan.groupBy.map((c) => `${t}.${this.quoteId(c.column)}`).join(', ')}`;
    // the result's fields by name (an output alias in both dialects' ORDER BY)
    const order = plan.orderBy.map((o) => `${this.quoteId(o.name)} ${o.direction === 'desc' ? 'DESC' : 'ASC'}`).join(', ');
    // PostgreSQL takes LIMIT before OFFSET, SQL Server OFFSET before FETCH: parameters in text order
    const page = plan.page === null ? null
      : this.dialect === 'mssql'
        ? { skip: this.param(ctx, { type: 'int', value: plan.page.skip }), fetch: this.param(ctx, { type: 'int', value: plan.page.fetch }) }
        : (() => { const fetch = this.param(ctx, { type: 'int', value: plan.page.fetch }); return { fetch, skip: this.param(ctx, { type: 'int', value: plan.page.skip }) }; })();
    const tail = aggregateTail(this.dialect, order, page);
    if (tail) sql += ` ${tail}`;
    return { sql, params: ctx.params, jsonColumns: [] };
  }

  compileInsert(plan: InsertPlan): CompiledQuery {
    const ctx = new CompileContext();
    const cols = plan.values.map((v) => this.quoteId(v.column)).join(', ');
    const values = plan.values.map((v) => this.param(ctx, v.value)).join(', ');
    const sql = this.clauses([
      `INSERT INTO ${this.objectName(plan.target)} (${cols})`,
      this.outputClause(plan.returning, 'INSERTED'),
      `VALUES (${values})`,
      this.returningClause(plan.returning),
    ]);
    return { sql, params: ctx.params, jsonColumns: [] };
  }

  compileUpdate(plan: UpdatePlan): CompiledQuery {
    const ctx = new CompileContext();
    const set = plan.set.map((v) => `${this.quoteId(v.column)} = ${this.param(ctx, v.value)}`).join(', ');
    const sql = this.clauses([
      `UPDATE ${this.objectName(plan.target)} SET ${set}`,
      this.outputClause(plan.returning, 'INSERTED'),
      this.keyWhere(plan.key, ctx),
      this.returningClause(plan.returning),
    ]);
    return { sql, params: ctx.params, jsonColumns: [] };
  }

  compileDelete(plan: DeletePlan): CompiledQuery {
    const ctx = new CompileContext();
    const key: ColumnRef[] = [{ column: plan.key.column, name: plan.key.column }];
    const sql = this.clauses([
      `DELETE FROM ${this.objectName(plan.target)}`,
      this.outputClause(key, 'DELETED'),
      this.keyWhere(plan.key, ctx),
      this.returningClause(key),
    ]);
    return { sql, params: ctx.params, jsonColumns: [] };
  }

  /** One multi-row INSERT (batch-plan.ts): `DEFAULT` where a row leaves a column out. */
  compileBatchInsert(plan: BatchInsertPlan): CompiledQuery {
    const ctx = new CompileContext();
    const cols = plan.columns.map((c) => this.quoteId(c)).join(', ');
    const rows = plan.rows.map((row) => `(${row.map((v) => (v === null ? 'DEFAULT' : this.param(ctx, v))).join(', ')})`).join(', ');
    const sql = this.clauses([
      `INSERT INTO ${this.objectName(plan.target)} (${cols})`,
      this.outputClause(plan.returning, 'INSERTED'),
      `VALUES ${rows}`,
      this.returningClause(plan.returning),
    ]);
    return { sql, params: ctx.params, jsonColumns: [] };
  }

  /** One DELETE of every key, or of none when one is missing (batch-plan.ts). */
  compileBatchDelete(plan: BatchDeletePlan): CompiledQuery {
    const ctx = new CompileContext();
    const keyCol = this.quoteId(plan.keyColumn);
    const key: ColumnRef[] = [{ column: plan.keyColumn, name: plan.keyColumn }];
    const table = this.objectName(plan.target);
    // the same placeholders twice: each key is one parameter
    const inList = plan.keys.map((k) => this.param(ctx, k)).join(', ');
    // locked: a key deleted by a concurrent transaction while this one waits makes it delete none
    const count = this.lockedCount(table, `${keyCol} IN (${inList})`, keyCol);
    const sql = this.clauses([
      `DELETE FROM ${table}`,
      this.outputClause(key, 'DELETED'),
      `WHERE ${keyCol} IN (${inList}) AND ${count} = ${this.param(ctx, { type: 'int', value: plan.keys.length })}`,
      this.returningClause(key),
    ]);
    return { sql, params: ctx.params, jsonColumns: [] };
  }

  compileProcedure(plan: ProcedurePlan): CompiledQuery {
    const ctx = new CompileContext();
    return { sql: this.procedureCall(plan, ctx), params: ctx.params, jsonColumns: [] };
  }

  private keyWhere(key: KeyMatch, ctx: CompileContext): string {
    const match = `${this.quoteId(key.column)} = ${this.param(ctx, key.value)}`;
    return key.rowFilter ? `WHERE ${match} AND ${this.bool(key.rowFilter, ctx)}` : `WHERE ${match}`;
  }

  private clauses(parts: readonly string[]): string {
    return parts.filter((p) => p !== '').join(' ');
  }

  objectName(ref: ObjectRef): string {
    return `${this.quoteId(ref.schema)}.${this.quoteId(ref.object)}`;
  }

  /** A column as its exact text (PostgreSQL `CAST(x AS text)`); unchanged where the dialect has no lossless text form. */
  protected exactText(column: string): string {
    return column;
  }

  protected selectItem(c: ColumnRef, qualifier?: string): string {
    const plain = qualifier ? `${qualifier}.${this.quoteId(c.column)}` : this.quoteId(c.column);
    const col = c.asText ? this.exactText(plain) : plain;
    return c.column === c.name ? col : `${col} AS ${this.quoteId(c.name)}`;
  }

  protected source(ref: ObjectRef, args: readonly FunctionArg[] | null, ctx: CompileContext): string {
    return args === null ? this.objectName(ref) : this.functionSource(ref, args, ctx);
  }

  /** Qualified with the base alias: a bare name would match an output alias first. */
  protected orderList(order: readonly OrderColumn[]): string {
    const t = this.quoteId(BASE_ALIAS);
    return order.map((o) => `${t}.${this.quoteId(o.column)} ${o.direction === 'desc' ? 'DESC' : 'ASC'}`).join(', ');
  }

  /** Add a parameter and return its placeholder. */
  param(ctx: CompileContext, value: TypedValue): string {
    ctx.params.push(value);
    return this.placeholder(ctx.params.length);
  }

  protected literal(lit: Exclude<Literal, { type: 'null' }>, ctx: CompileContext): string {
    return this.param(ctx, literalValue(lit));
  }

  protected bool(e: BoolExpr, ctx: CompileContext): string {
    switch (e.kind) {
      case 'logical':
        return `(${this.bool(e.left, ctx)} ${e.op === 'and' ? 'AND' : 'OR'} ${this.bool(e.right, ctx)})`;
      case 'not':
        return `NOT (${this.bool(e.operand, ctx)})`;
      case 'in':
        return `${this.value(e.operand, ctx)} IN (${e.items.map((i) => this.value(i, ctx)).join(', ')})`;
      case 'match': {
        const escaped = this.escapeLike(e.pattern);
        const pattern = e.fn === 'contains' ? `%${escaped}%` : e.fn === 'startswith' ? `${escaped}%` : `%${escaped}`;
        return `${this.value(e.operand, ctx)} LIKE ${this.param(ctx, { type: 'string', value: pattern })} ESCAPE '\\'`;
      }
      case 'compare': {
        const { left, right, op } = e;
        const isNull = (v: ValueExpr): boolean => v.kind === 'literal' && v.type === 'null';
        if (isNull(right) || isNull(left)) {
          const other = isNull(right) ? left : right;
          return `${this.value(other, ctx)} ${op === 'eq' ? 'IS NULL' : 'IS NOT NULL'}`;
        }
        return `${this.value(left, ctx)} ${COMPARE_SQL[op]} ${this.value(right, ctx)}`;
      }
    }
  }

  protected value(e: ValueExpr, ctx: CompileContext): string {
    switch (e.kind) {
      case 'member':
        return this.quoteId(e.column);
      case 'literal':
        if (e.type === 'null') return 'NULL';
        return this.literal(e, ctx);
      case 'call':
        return this.valueFunction(e.fn, e.args.map((a) => this.value(a, ctx)));
    }
  }

  escapeLike(text: string): string {
    let out = '';
    for (const ch of text) out += ch === '\\' || this.likeSpecials.includes(ch) ? `\\${ch}` : ch;
    return out;
  }
}

export function literalValue(lit: Exclude<Literal, { type: 'null' }>): TypedValue {
  switch (lit.type) {
    case 'int':
      return { type: Math.abs(lit.value) <= 2_147_483_647 ? 'int' : 'bigint', value: lit.value };
    case 'boolean':
      return { type: 'boolean', value: lit.value };
    default:
      return { type: lit.type, value: lit.value };
  }
}
