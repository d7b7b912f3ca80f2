/**
 * `wharf add sql`: an entity.json for one object of the database snapshot. Tables and views get
 * every column and the catalogue's primary key; a table-valued function its result columns and
 * its parameters (as Query parameters, required unless the function has a default). Write methods
 * on a table add `WriteMode: Table` and, as RequiredColumns, the NOT NULL columns the database
 * does not fill itself. Pure: the command prints or writes the text.
 */
import { findObject, type DbSnapshot } from '../../runtime/contract/db-snapshot.js';
import { HTTP_METHODS, METHOD_MATRIX, type HttpMethod } from '../../runtime/contract/index.js';
import { splitQualified } from './used-objects.js';

export interface ScaffoldRequest {
  /** `schema.object` as in the snapshot. */
  readonly object: string;
  readonly namespace?: string | undefined;
  readonly methods?: readonly string[] | undefined;
}

export interface Scaffold {
  /** Where the file goes, relative to the project root. */
  readonly file: string;
  readonly config: Record<string, unknown>;
}

const WRITES: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH', 'MERGE', 'DELETE'];
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function scaffoldSql(snapshot: DbSnapshot, request: ScaffoldRequest): Scaffold {
  if (!request.object.includes('.')) throw new Error(`name the object as SCHEMA.OBJECT, got '${request.object}'`);
  const { schema, name } = splitQualified(request.object, '');
  const object = findObject(snapshot, schema, name);
  if (!object) throw new Error(`'${request.object}' is not in the database snapshot; run \`wharf db pull\` first, or check the name`);
  if (object.type === 'Procedure') throw new Error(`'${request.object}' is a procedure: name it as the Procedure of a table endpoint instead`);
  const methods = (request.methods ?? []).map((m) => m.trim().toUpperCase()).filter((m) => m !== '');
  for (const m of methods) {
    if (!(HTTP_METHODS as readonly string[]).includes(m) || !METHOD_MATRIX.sql.includes(m as HttpMethod)) throw new Error(`method '${m}' is not one of ${METHOD_MATRIX.sql.join(', ')}`);
  }
  const writes = methods.filter((m) => WRITES.includes(m as HttpMethod));
  if (writes.length > 0 && object.type !== 'Table') throw new Error(`${writes.join(', ')} need a table; '${request.object}' is a ${object.type === 'Function' ? 'table-valued function' : 'view'}`);
  const columns = object.columns.map((c) => c.name);
  const unusable = columns.filter((c) => !IDENTIFIER.test(c));
  if (unusable.length) throw new Error(`column(s) ${unusable.join(', ')} are not plain identifiers; AllowedColumns cannot name them`);
  const realName = Object.keys(snapshot.objects).find((k) => snapshot.objects[k] === object)!;
  const dot = realName.indexOf('.');
  const [dbSchema, dbName] = [realName.slice(0, dot), realName.slice(dot + 1)];
  const segments = request.namespace ? request.namespace.split('/').filter((s) => s !== '') : [];
  const file = ['endpoints', 'SQL', ...segments, dbName, 'entity.json'].join('/');
  const config: Record<string, unknown> = {
    $schema: `${'../'.repeat(segments.length + 3)}schemas/sql.schema.json`,
    DatabaseSchema: dbSchema,
    DatabaseObjectName: dbName,
  };
  if (object.type === 'View') config['DatabaseObjectType'] = 'View';
  if (object.type === 'Function') config['DatabaseObjectType'] = 'TableValuedFunction';
  if (object.type !== 'Function') {
    const key = object.primaryKey?.length === 1 ? object.primaryKey[0]! : null;
    if (key !== null) config['PrimaryKey'] = key;
    else if (!columns.includes('Id') && columns.length > 0) config['PrimaryKey'] = columns[0];
  }
  if (object.type === 'Function') {
    config['FunctionParameters'] = (object.parameters ?? [])
      .filter((p) => p.mode !== 'OUT')
      .map((p) => ({ Name: p.name, SqlType: p.type, Source: 'Query', Required: !p.hasDefault, ...(p.hasDefault ? { DefaultValue: 'DEFAULT' } : {}) }));
  }
  config['AllowedColumns'] = columns;
  if (methods.length > 0) config['AllowedMethods'] = methods;
  if (writes.length > 0) {
    config['WriteMode'] = 'Table';
    const required = object.columns.filter((c) => !c.nullable && c.default === undefined && !c.identity && !c.generated).map((c) => c.name);
    if (required.length > 0) config['RequiredColumns'] = required;
  }
  return { file, config };
}
