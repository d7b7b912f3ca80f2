/**
 * With a database snapshot (endpoints/database.snapshot.json, `wharf db pull`), every name an SQL
 * endpoint gives the database is checked against the catalogue, with "did you mean":
 *  - DatabaseObjectName and Procedure exist, and the object is of the configured type;
 *  - AllowedColumns and an explicit PrimaryKey are columns of the object (RequiredColumns,
 *    ColumnValidation, ResponseTransforms and Relationships' LocalColumn/TargetColumn must name
 *    AllowedColumns of their endpoint, rules write-columns and relationships, so each is checked
 *    through the AllowedColumns entry it names: one diagnostic per misspelt column);
 *  - FunctionParameters are parameters of the function, and no parameter without a default is left out;
 *  - PrimaryKey is the catalogue's key or a unique column; a Table-mode POST can set every NOT NULL column without a default.
 *  - a Webhook endpoint's table exists and has the columns every call writes.
 * Without a snapshot the rule says nothing (the build stays offline and unchanged).
 */
import { findColumn, findObject, namesAreCaseSensitive, type DbSnapshot, type SnapshotObject } from '../../../runtime/contract/db-snapshot.js';
import type { Diagnostic } from '../../diagnostics.js';
import { splitQualified } from '../../db-snapshot/used-objects.js';
import type { SqlConfig, WebhookConfig } from '../../model/config.js';
import { parseColumn } from '../../model/column-spec.js';
import { DEFAULTS } from '../../model/defaults.js';
import type { EntityContext } from '../../stages.js';
import { pointer } from '../pointer.js';
import { error, warning } from '../report.js';
import type { EntityRule } from '../rule.js';
import { closest } from '../../../runtime/contract/suggest.js';

const SNAPSHOT = 'endpoints/database.snapshot.json';

function suggestion(name: string, candidates: readonly string[], what: string): string {
  const near = closest(name, candidates);
  if (near !== null) return `Did you mean '${near}'? (${SNAPSHOT})`;
  return `${what}: ${candidates.join(', ') || 'none'} (${SNAPSHOT}; run \`wharf db pull\` if the database changed)`;
}

function objectNames(snapshot: DbSnapshot, schema: string): string[] {
  const relations = Object.keys(snapshot.objects).filter((k) => snapshot.objects[k]!.type !== 'Procedure');
  const inSchema = relations.filter((k) => k.startsWith(`${schema}.`)).map((k) => k.slice(schema.length + 1));
  return inSchema.length ? inSchema : relations;
}

/** The object an SQL endpoint config names, or undefined. */
function objectOf(snapshot: DbSnapshot, config: SqlConfig): SnapshotObject | undefined {
  return findObject(snapshot, config.DatabaseSchema ?? DEFAULTS.sql.DatabaseSchema, config.DatabaseObjectName, namesAreCaseSensitive(snapshot));
}

function checkColumn(ctx: EntityContext, object: SnapshotObject, objectName: string, column: string, at: string, label: string, caseSensitive: boolean): Diagnostic[] {
  if (findColumn(object, column, caseSensitive)) return [];
  return [
    error(ctx, 'db-column-unknown', at, `${label} '${column}' is not a column of ${objectName}`, {
      hint: suggestion(column, object.columns.map((c) => c.name), `Columns of ${objectName}`),
    }),
  ];
}

function checkType(ctx: EntityContext, config: SqlConfig, object: SnapshotObject, name: string): Diagnostic[] {
  const declared = config.DatabaseObjectType ?? DEFAULTS.sql.DatabaseObjectType;
  const isFunction = object.type === 'Function';
  if ((declared === 'TableValuedFunction') !== isFunction || object.type === 'Procedure') {
    const actual = object.type === 'Function' ? 'a table-valued function' : object.type === 'Procedure' ? 'a procedure' : `a ${object.type.toLowerCase()}`;
    return [
      error(ctx, 'db-object-type', config.DatabaseObjectType ? '/DatabaseObjectType' : '/DatabaseObjectName', `${name} is ${actual}, but the endpoint reads it as a ${declared}`, {
        hint: isFunction ? "Set DatabaseObjectType to 'TableValuedFunction'." : object.type === 'Procedure' ? 'Name the procedure as the Procedure of a Table endpoint.' : `Set DatabaseObjectType to '${object.type}'.`,
      }),
    ];
  }
  return [];
}

function checkParameters(ctx: EntityContext, config: SqlConfig, object: SnapshotObject, name: string, dialect: DbSnapshot['dialect']): Diagnostic[] {
  const out: Diagnostic[] = [];
  const params = (object.parameters ?? []).filter((p) => p.mode !== 'OUT');
  const configured = config.FunctionParameters ?? [];
  // PostgreSQL gets named arguments as quoted identifiers: exact names
  const same = (a: string, b: string): boolean => (dialect === 'postgres' ? a === b : a.toLowerCase() === b.toLowerCase());
  configured.forEach((p, i) => {
    if (params.some((d) => same(d.name, p.Name))) return;
    out.push(
      error(ctx, 'db-parameter-unknown', pointer('', 'FunctionParameters', i, 'Name'), `Function parameter '${p.Name}' is not a parameter of ${name}`, {
        hint: suggestion(p.Name, params.map((d) => d.name), `Parameters of ${name}`),
      }),
    );
  });
  for (const d of params) {
    if (d.hasDefault || configured.some((p) => same(p.Name, d.name))) continue;
    out.push(
      error(ctx, 'db-parameter-missing', '/FunctionParameters', `${name} has a parameter '${d.name}' (${d.type}) ${dialect === 'mssql' ? '(SQL Server takes every argument)' : 'without a default'}, which FunctionParameters does not give`, {
        hint: `Add { "Name": "${d.name}", "SqlType": "${d.type}", "Source": "Query", "Required": true }.`,
      }),
    );
  }
  return out;
}

/** The columns a webhook writes (runtime/webhook/webhook-handler.ts; DDL in docs/webhooks.md). */
const WEBHOOK_COLUMNS = ['WebhookId', 'Payload', 'ReceivedAt'];

function checkWebhook(ctx: EntityContext, snapshot: DbSnapshot): Diagnostic[] {
  const config = ctx.config as unknown as WebhookConfig;
  const schema = config.DatabaseSchema ?? DEFAULTS.webhook.DatabaseSchema;
  const name = `${schema}.${config.DatabaseObjectName}`;
  const object = findObject(snapshot, schema, config.DatabaseObjectName, namesAreCaseSensitive(snapshot));
  if (!object || object.type !== 'Table') {
    const tables = Object.keys(snapshot.objects).filter((k) => snapshot.objects[k]!.type === 'Table' && k.startsWith(`${schema}.`)).map((k) => k.slice(schema.length + 1));
    return [
      error(ctx, 'db-object-unknown', '/DatabaseObjectName', `${name} is not a table of the database`, {
        hint: suggestion(config.DatabaseObjectName, tables, `Tables of schema ${schema}`),
      }),
    ];
  }
  const missing = WEBHOOK_COLUMNS.filter((c) => !findColumn(object, c, namesAreCaseSensitive(snapshot)));
  if (missing.length === 0) return [];
  return [
    error(ctx, 'db-column-unknown', '/DatabaseObjectName', `${name} has no column ${missing.map((c) => `'${c}'`).join(', ')}, which every webhook call writes`, {
      hint: 'A webhook table has the columns WebhookId, Payload and ReceivedAt (docs/webhooks.md).',
    }),
  ];
}

export const databaseSnapshotRule: EntityRule = {
  name: 'database-snapshot',
  scope: 'entity',
  // reads the snapshot, a build input outside the entity: runs on every build
  readsOtherEntities: true,
  codes: ['db-object-unknown', 'db-object-type', 'db-column-unknown', 'db-parameter-unknown', 'db-parameter-missing', 'db-primary-key', 'db-write-column'],
  kinds: ['sql', 'webhook'],
  check(ctx, project) {
    const snapshot = project.dbSnapshot;
    if (!snapshot) return [];
    if (ctx.kind === 'webhook') return checkWebhook(ctx, snapshot);
    const config = ctx.config as unknown as SqlConfig;
    const schema = config.DatabaseSchema ?? DEFAULTS.sql.DatabaseSchema;
    const name = `${schema}.${config.DatabaseObjectName}`;
    const out: Diagnostic[] = [];
    if (typeof config.Procedure === 'string') {
      const proc = splitQualified(config.Procedure, schema);
      const found = findObject(snapshot, proc.schema, proc.name, namesAreCaseSensitive(snapshot));
      if (found?.type !== 'Procedure') {
        const procedures = Object.keys(snapshot.objects).filter((k) => snapshot.objects[k]!.type === 'Procedure');
        out.push(error(ctx, 'db-object-unknown', '/Procedure', `Procedure '${config.Procedure}' is not a procedure of the database`, { hint: suggestion(`${proc.schema}.${proc.name}`, procedures, 'Procedures') }));
      }
    }
    const exact = namesAreCaseSensitive(snapshot);
    const object = objectOf(snapshot, config);
    if (!object) {
      out.push(
        error(ctx, 'db-object-unknown', '/DatabaseObjectName', `${name} is not a table, view or function of the database`, {
          hint: suggestion(config.DatabaseObjectName, objectNames(snapshot, schema), `Objects of schema ${schema}`),
        }),
      );
      return out;
    }
    const typed = checkType(ctx, config, object, name);
    out.push(...typed);
    if (typed.length) return out;
    config.AllowedColumns.forEach((entry, i) => {
      const column = parseColumn(entry);
      if (column) out.push(...checkColumn(ctx, object, name, column.db, pointer('', 'AllowedColumns', i), 'AllowedColumns entry', exact));
    });
    if (object.type === 'Function') return [...out, ...checkParameters(ctx, config, object, name, snapshot.dialect)];

    const key = config.PrimaryKey ?? DEFAULTS.sql.PrimaryKey;
    if (config.PrimaryKey !== undefined) out.push(...checkColumn(ctx, object, name, key, '/PrimaryKey', 'PrimaryKey', exact));
    const catalogueKey = object.primaryKey ?? [];
    const isUnique = (object.unique ?? []).some((u) => u.length === 1 && u[0]!.toLowerCase() === key.toLowerCase());
    if (catalogueKey.length === 1 && findColumn(object, key, exact) && catalogueKey[0]!.toLowerCase() !== key.toLowerCase() && !isUnique) {
      out.push(
        warning(ctx, 'db-primary-key', config.PrimaryKey !== undefined ? '/PrimaryKey' : '/AllowedColumns', `PrimaryKey '${key}' is neither the primary key of ${name} ('${catalogueKey[0]}') nor unique`, {
          hint: 'A column that is not unique addresses more than one row with /{id}; use the catalogue\'s key.',
        }),
      );
    }
    const writesTable = (config.WriteMode ?? DEFAULTS.sql.WriteMode) === 'Table' && config.AllowedMethods?.includes('POST') === true;
    if (writesTable && object.type === 'Table') {
      const allowed = config.AllowedColumns.map((e) => parseColumn(e)?.db.toLowerCase());
      const unset = object.columns.filter((c) => !c.nullable && c.default === undefined && !c.identity && !c.generated && !allowed.includes(c.name.toLowerCase()));
      for (const c of unset) {
        out.push(
          warning(ctx, 'db-write-column', '/AllowedColumns', `${name}.${c.name} is NOT NULL without a default, but not in AllowedColumns: every POST will fail`, {
            hint: `Add '${c.name}' to AllowedColumns (and RequiredColumns).`,
          }),
        );
      }
    }
    return out;
  },
};
