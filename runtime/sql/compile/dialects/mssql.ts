/**
 * SQL Server: [x] quoting, @pN placeholders (typed by the driver), OFFSET/FETCH (needs ORDER BY:
 * the key is the tie-breaker, `(SELECT NULL)` when there is none), `[` escaped in LIKE,
 * DEFAULT for omitted TVF arguments, FOR JSON PATH for $expand (parsed by the handler).
 */
import type { ValueFunction } from '../../odata/ast.js';
import type { ColumnRef, ExpandPlan, FunctionArg, ObjectRef, ReadPlan } from '../../plan.js';
import type { ProcedurePlan } from '../../write-plan.js';
import { SqlCompiler, type CompileContext } from '../compiler.js';

export class MssqlCompiler extends SqlCompiler {
  readonly dialect = 'mssql' as const;
  protected override likeSpecials = '%_[';

  quoteId(name: string): string {
    return `[${name.replace(/]/g, ']]')}]`;
  }

  protected placeholder(n: number): string {
    return `@p${n}`;
  }

  protected pagingTail(plan: ReadPlan, ctx: CompileContext): string {
    if (!plan.page) return plan.orderBy.length > 0 ? `ORDER BY ${this.orderList(plan.orderBy)}` : '';
    const order = plan.orderBy.length > 0 ? this.orderList(plan.orderBy) : '(SELECT NULL)';
    const skip = this.param(ctx, { type: 'int', value: plan.page.skip });
    const fetch = this.param(ctx, { type: 'int', value: plan.page.fetch });
    return `ORDER BY ${order} OFFSET ${skip} ROWS FETCH NEXT ${fetch} ROWS ONLY`;
  }

  protected valueFunction(fn: ValueFunction, a: readonly string[]): string {
    const x = a[0] as string;
    switch (fn) {
      case 'tolower': return `LOWER(${x})`;
      case 'toupper': return `UPPER(${x})`;
      case 'trim': return `LTRIM(RTRIM(${x}))`;
      case 'length': return `LEN(${x})`;
      case 'indexof': return `(CHARINDEX(${a[1] as string}, ${x}) - 1)`;
      case 'year': case 'month': case 'day': case 'hour': case 'minute': case 'second':
        return `DATEPART(${fn}, ${x})`;
      case 'date': return `CAST(${x} AS date)`;
      case 'time': return `CAST(${x} AS time)`;
    }
  }

  /** Positional; every declared parameter is passed, `DEFAULT` for the function's own default. */
  protected functionSource(ref: ObjectRef, args: readonly FunctionArg[], ctx: CompileContext): string {
    const list = args.map((arg) => (arg.kind === 'default' ? 'DEFAULT' : this.param(ctx, arg.value)));
    return `${this.objectName(ref)}(${list.join(', ')})`;
  }

  /** OUTPUT without INTO: a table with triggers needs a procedure endpoint instead (SQL Server rule). */
  protected outputClause(columns: readonly ColumnRef[], pseudo: 'INSERTED' | 'DELETED'): string {
    return `OUTPUT ${columns.map((c) => this.selectItem(c, pseudo)).join(', ')}`;
  }

  protected returningClause(): string {
    return '';
  }

  /** UPDLOCK: a locking read of the latest committed rows, held to the end of the statement (also under snapshot isolation). */
  protected lockedCount(table: string, where: string): string {
    return `(SELECT COUNT(*) FROM ${table} WITH (UPDLOCK) WHERE ${where})`;
  }

  /**
   * EXEC with named parameters. Names are AllowedColumns database names (identifiers by the
   * compiler's allowed-column rule) or `Method`, so `@<name>` needs no quoting; checked again here.
   */
  protected procedureCall(plan: ProcedurePlan, ctx: CompileContext): string {
    const args = plan.args.map((a) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.name)) throw new Error(`procedure parameter name '${a.name}' is not an identifier`);
      return `@${a.name} = ${this.param(ctx, a.value)}`;
    });
    return `EXEC ${this.objectName(plan.procedure)}${args.length > 0 ? ` ${args.join(', ')}` : ''}`;
  }

  protected expandColumn(exp: ExpandPlan, outer: string, ctx: CompileContext): string {
    ctx.jsonColumns.push(exp.name);
    const alias = this.quoteId('e');
    const cols = exp.select.map((c) => this.selectItem(c, alias)).join(', ');
    const join = `${alias}.${this.quoteId(exp.targetColumn)} = ${outer}.${this.quoteId(exp.localColumn)}`;
    if (exp.multiplicity === 'ToOne') {
      return `(SELECT TOP 1 ${cols} FROM ${this.objectName(exp.target)} AS ${alias} WHERE ${join} FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES)`;
    }
    const order = exp.orderColumn ? ` ORDER BY ${alias}.${this.quoteId(exp.orderColumn)}` : '';
    const limit = this.param(ctx, { type: 'int', value: exp.limit });
    return `COALESCE((SELECT TOP (${limit}) ${cols} FROM ${this.objectName(exp.target)} AS ${alias} WHERE ${join}${order} FOR JSON PATH, INCLUDE_NULL_VALUES), '[]')`;
  }
}

export const mssqlCompiler = new MssqlCompiler();
