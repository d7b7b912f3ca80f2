/** What a SQL write needs besides the request (write-handler.ts, batch-handler.ts). */
import type { FilterExpr } from './odata/ast.js';
import type { ColumnKinds } from './odata/type-check.js';
import type { SqlCompiler } from './compile/compiler.js';
import type { SqlDriver } from './drivers/driver.js';

export interface SqlWriteDeps {
  readonly driver: SqlDriver;
  readonly compiler: SqlCompiler;
  /** db column -> value kind from the database catalogue (column-types.ts); absent = type not checked. */
  readonly columnKinds?: ColumnKinds;
  /** An Authorization rule's RowFilter, claims bound (rule-scope.ts); Table mode only. */
  readonly rowFilter?: FilterExpr | null;
  /** Sql:MaxBatchRows: rows one batch write may hold (batch-handler.ts); default 1000. */
  readonly maxBatchRows?: number;
}
