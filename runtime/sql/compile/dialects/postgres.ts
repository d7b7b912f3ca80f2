/** PostgreSQL (and embedded PGlite): "x" quoting, $n placeholders, LIMIT/OFFSET, json_agg for $expand. */
import type { Literal, ValueFunction } from '../../odata/ast.js';
import type { ColumnRef, ExpandPlan, FunctionArg, ObjectRef, ReadPlan } from '../../plan.js';
import type { ProcedurePlan } from '../../write-plan.js';
import { literalValue, SqlCompiler, type CompileContext } from '../compiler.js';

/** Largest smallint: a whole-number literal beyond it may not fit the column's type uncast. */
const SMALLINT_MAX = 32_767;

export class PostgresCompiler extends SqlCompiler {
  readonly dialect = 'postgres' as const;

  quoteId(name: string): string {
    return `"${name.replace(/"/g, '""')}"`;
  }

  protected placeholder(n: number): string {
    return `$${n}`;
  }

  /** Keyset values: microseconds of a timestamptz and every digit of a numeric survive the token. */
  protected override exactText(column: string): string {
    return `CAST(${column} AS text)`;
  }

  /**
   * Decimal literals are cast so that `IntColumn gt 2.5` compares numerically instead of failing.
   * An uncast parameter takes the column's type, so a whole number wider than the column failed as
   * out of range (`IntColumn lt 3000000000`, `SmallintColumn eq 40000`) instead of matching rows:
   * one beyond 16 bits is cast to integer, one beyond 32 bits to bigint.
   */
  protected override literal(lit: Exclude<Literal, { type: 'null' }>, ctx: CompileContext): string {
    const p = super.literal(lit, ctx);
    if (lit.type === 'decimal') return `CAST(${p} AS numeric)`;
    if (lit.type !== 'int' || Math.abs(lit.value) <= SMALLINT_MAX) return p;
    return literalValue(lit).type === 'bigint' ? `CAST(${p} AS bigint)` : `CAST(${p} AS integer)`;
  }

  protected pagingTail(plan: ReadPlan, ctx: CompileContext): string {
    const parts: string[] = [];
    if (plan.orderBy.length > 0) parts.push(`ORDER BY ${this.orderList(plan.orderBy)}`);
    if (plan.page) {
      parts.push(`LIMIT ${this.param(ctx, { type: 'int', value: plan.page.fetch })}`);
      parts.push(`OFFSET ${this.param(ctx, { type: 'int', value: plan.page.skip })}`);
    }
    return parts.join(' ');
  }

  protected valueFunction(fn: ValueFunction, a: readonly string[]): string {
    const x = a[0] as string;
    switch (fn) {
      case 'tolower': return `LOWER(${x})`;
      case 'toupper': return `UPPER(${x})`;
      case 'trim': return `TRIM(${x})`;
      case 'length': return `LENGTH(${x})`;
      case 'indexof': return `(STRPOS(${x}, ${a[1] as string}) - 1)`;
      case 'year': case 'month': case 'day': case 'hour': case 'minute':
        return `CAST(EXTRACT(${fn.toUpperCase()} FROM ${x}) AS integer)`;
      case 'second': return `CAST(FLOOR(EXTRACT(SECOND FROM ${x})) AS integer)`;
      case 'date': return `CAST(${x} AS date)`;
      case 'time': return `CAST(${x} AS time)`;
    }
  }

  /** Named notation; `DEFAULT` arguments are left out so the function's own default applies. */
  protected functionSource(ref: ObjectRef, args: readonly FunctionArg[], ctx: CompileContext): string {
    const given = args.flatMap((arg) =>
      arg.kind === 'default' ? [] : [`${this.quoteId(arg.name)} => ${this.param(ctx, arg.value)}`]);
    return `${this.objectName(ref)}(${given.join(', ')})`;
  }

  /** FOR UPDATE in key order (two batches lock their common rows in the same order: no deadlock). */
  protected lockedCount(table: string, where: string, keyColumn: string): string {
    return `(SELECT COUNT(*) FROM (SELECT 1 FROM ${table} WHERE ${where} ORDER BY ${keyColumn} FOR UPDATE) AS ${this.quoteId('locked')})`;
  }

  protected outputClause(): string {
    return '';
  }

  protected returningClause(columns: readonly ColumnRef[]): string {
    return `RETURNING ${columns.map((c) => this.selectItem(c)).join(', ')}`;
  }

  /**
   * Named notation. A PROCEDURE is CALLed (its INOUT parameters come back as one row); a FUNCTION
   * is selected from (its first row is the result). Which one it is is found out once at run time.
   */
  protected procedureCall(plan: ProcedurePlan, ctx: CompileContext): string {
    const args = plan.args.map((a) => `${this.quoteId(a.name)} => ${this.param(ctx, a.value)}`).join(', ');
    const call = `${this.objectName(plan.procedure)}(${args})`;
    return plan.asFunction ? `SELECT * FROM ${call}` : `CALL ${call}`;
  }

  protected expandColumn(exp: ExpandPlan, outer: string, ctx: CompileContext): string {
    const alias = this.quoteId('e');
    const cols = exp.select.map((c) => this.selectItem(c, alias)).join(', ');
    const join = `${alias}.${this.quoteId(exp.targetColumn)} = ${outer}.${this.quoteId(exp.localColumn)}`;
    const inner = `SELECT ${cols} FROM ${this.objectName(exp.target)} AS ${alias} WHERE ${join}`;
    if (exp.multiplicity === 'ToOne') {
      return `(SELECT row_to_json("j") FROM (${inner} LIMIT 1) AS "j")`;
    }
    const order = exp.orderColumn ? ` ORDER BY ${alias}.${this.quoteId(exp.orderColumn)}` : '';
    const limit = this.param(ctx, { type: 'int', value: exp.limit });
    return `(SELECT COALESCE(json_agg("j"), '[]'::json) FROM (${inner}${order} LIMIT ${limit}) AS "j")`;
  }
}

export const postgresCompiler = new PostgresCompiler();
