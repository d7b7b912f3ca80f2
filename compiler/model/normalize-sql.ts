/** SQL endpoint normalization. */
import type { SqlEndpoint } from '../../runtime/contract/index.js';
import type { EntityContext } from '../stages.js';
import { parseColumns } from './column-spec.js';
import type { SqlConfig } from './config.js';
import { DEFAULTS } from './defaults.js';
import { resolveReference, responseTransforms, type EndpointBase } from './normalize-shared.js';

export function normalizeSql(ctx: EntityContext, base: EndpointBase, contexts: readonly EntityContext[]): SqlEndpoint {
  const c = ctx.config as unknown as SqlConfig;
  const objectType = c.DatabaseObjectType ?? DEFAULTS.sql.DatabaseObjectType;
  const isFunction = objectType === 'TableValuedFunction';
  return {
    ...base,
    kind: 'sql',
    schema: c.DatabaseSchema ?? DEFAULTS.sql.DatabaseSchema,
    objectName: c.DatabaseObjectName,
    objectType,
    primaryKey: isFunction ? null : (c.PrimaryKey ?? DEFAULTS.sql.PrimaryKey),
    columns: parseColumns(c.AllowedColumns),
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
    responseTransforms: responseTransforms(c.ResponseTransforms),
    relationships: (c.Relationships ?? []).map((r) => ({
      name: r.Name,
      targetId: resolveReference(ctx, contexts, r.Target, 'sql'),
      localColumn: r.LocalColumn,
      targetColumn: r.TargetColumn,
      multiplicity: r.Multiplicity ?? DEFAULTS.sql.RelationshipMultiplicity,
    })),
    cacheDurationSeconds: c.CacheDurationSeconds ?? null,
  };
}
