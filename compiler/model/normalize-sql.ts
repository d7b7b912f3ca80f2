/** SQL endpoint normalization. */
import type { SqlColumn, SqlEndpoint } from '../../runtime/contract/index.js';
import type { EntityContext } from '../stages.js';
import { parseColumns } from './column-spec.js';
import type { SqlConfig } from './config.js';
import { DEFAULTS } from './defaults.js';
import { resolveReference, responseTransforms, type EndpointBase } from './normalize-shared.js';

/** A configured column name (database name or alias, any case) as its database name. */
function dbName(columns: readonly SqlColumn[], name: string): string {
  const lower = name.toLowerCase();
  return (columns.find((c) => c.db === name) ?? columns.find((c) => c.name.toLowerCase() === lower || c.db.toLowerCase() === lower))?.db ?? name;
}

export function normalizeSql(ctx: EntityContext, base: EndpointBase, contexts: readonly EntityContext[]): SqlEndpoint {
  const c = ctx.config as unknown as SqlConfig;
  const objectType = c.DatabaseObjectType ?? DEFAULTS.sql.DatabaseObjectType;
  const isFunction = objectType === 'TableValuedFunction';
  const columns = parseColumns(c.AllowedColumns);
  return {
    ...base,
    kind: 'sql',
    schema: c.DatabaseSchema ?? DEFAULTS.sql.DatabaseSchema,
    objectName: c.DatabaseObjectName,
    objectType,
    primaryKey: isFunction ? null : (c.PrimaryKey ?? DEFAULTS.sql.PrimaryKey),
    columns,
    functionParameters: isFunction
      ? (c.FunctionParameters ?? []).map((p) => ({
          name: p.Name,
          sqlType: p.SqlType,
          source: p.Source,
          position: p.Source === 'Path' ? (p.Position ?? null) : null,
          required: p.Required ?? DEFAULTS.sql.FunctionParameterRequired,
          defaultValue: p.DefaultValue ?? null,
          validationPattern: p.ValidationPattern ?? null,
        }))
      : [],
    procedure: c.Procedure ?? null,
    writeMode: c.WriteMode ?? DEFAULTS.sql.WriteMode,
    requiredColumns: (c.RequiredColumns ?? []).map((name) => dbName(columns, name)),
    columnValidation: Object.entries(c.ColumnValidation ?? {})
      .map(([name, v]) => ({ column: dbName(columns, name), regex: v.Regex, message: v.ValidationMessage ?? null }))
      .sort((a, b) => (a.column < b.column ? -1 : a.column > b.column ? 1 : 0)),
    responseTransforms: responseTransforms(c.ResponseTransforms),
    relationships: (c.Relationships ?? []).map((r) => ({
      name: r.Name,
      targetId: resolveReference(ctx, contexts, r.Target, 'sql'),
      localColumn: r.LocalColumn,
      targetColumn: r.TargetColumn,
      multiplicity: r.Multiplicity ?? DEFAULTS.sql.RelationshipMultiplicity,
    })),
    cacheDurationSeconds: c.CacheDurationSeconds ?? null,
    maxBatchRows: c.MaxBatchRows ?? null,
    paging: c.Paging ?? DEFAULTS.sql.Paging,
  };
}
