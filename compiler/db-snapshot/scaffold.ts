/**
 * `wharf add sql`: an entity.json for one object of the database snapshot. Tables and views get
 * every column and the catalogue's primary key; a table-valued function its result columns and
 * its parameters (as Query parameters, required unless the function has a default). Write methods
 * on a table add `WriteMode: Table` and, as RequiredColumns, the NOT NULL columns the database
 * does not fill itself. A single-column foreign key to or from an object another endpoint of the
 * project serves becomes a Relationship. Pure: the command prints or writes the text.
 */
import { findObject, type DbSnapshot } from '../../runtime/contract/db-snapshot.js';
import { HTTP_METHODS, METHOD_MATRIX, type HttpMethod } from '../../runtime/contract/index.js';
import { isReserved, NAMESPACE_MAX_LENGTH, reservedMessage, SEGMENT, segmentMessage } from '../validate/rules/naming.js';
import { splitQualified } from './used-objects.js';

/**
 * The folders the entity would be written to obey the naming rules the build applies: `--namespace
 * ../../x` (or an object named so in the catalogue) wrote outside endpoints/, and a name the build
 * refuses would only fail the next build.
 */
function checkFolderNames(segments: readonly string[], name: string): void {
  for (const segment of segments) if (!SEGMENT.test(segment)) throw new Error(`--namespace: ${segmentMessage(segment)}`);
  const namespace = segments.join('/');
  if (namespace.length > NAMESPACE_MAX_LENGTH) throw new Error(`--namespace '${namespace}' is ${namespace.length} characters long; the maximum is ${NAMESPACE_MAX_LENGTH}`);
  if (segments[0] !== undefined && isReserved(segments[0])) throw new Error(`--namespace: ${reservedMessage(segments[0])}`);
  if (!SEGMENT.test(name)) throw new Error(`the object's name '${name}' cannot be an endpoint folder: it must start with a letter and contain only letters, numbers, and underscores (create a view named so)`);
  if (segments.length === 0 && isReserved(name)) throw new Error(`'${name}' is a reserved name and cannot be a non-namespaced endpoint: give a --namespace`);
}

/** An SQL endpoint of the project, as a possible Relationships target. */
export interface ExistingEndpoint {
  /** Route path (`Inventory/Categories`): what Relationships' Target names. */
  readonly routePath: string;
  /** `schema.name` of its object. */
  readonly object: string;
  /** Database names of its AllowedColumns. */
  readonly columns: readonly string[];
}

export interface ScaffoldRequest {
  /** `schema.object` as in the snapshot. */
  readonly object: string;
  readonly namespace?: string | undefined;
  readonly methods?: readonly string[] | undefined;
  /** The project's SQL endpoints over tables and views: foreign keys to or from their objects become Relationships. */
  readonly endpoints?: readonly ExistingEndpoint[];
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
  checkFolderNames(segments, dbName);
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
  if (object.type !== 'Function') {
    const relationships = relationshipsOf(snapshot, realName, columns, request.endpoints ?? []);
    if (relationships.length > 0) config['Relationships'] = relationships;
  }
  return { file, config };
}

/** `Categories` -> `Category`, `Orders` -> `Order`: the name of one related row. */
function singular(name: string): string {
  if (/ies$/.test(name)) return `${name.slice(0, -3)}y`;
  if (/(ss|us)$/.test(name)) return name;
  return name.endsWith('s') ? name.slice(0, -1) : name;
}

const localName = (key: string): string => key.slice(key.indexOf('.') + 1);

/**
 * Single-column foreign keys between this object and an object an endpoint of the project serves
 * (with the key column in its AllowedColumns): this object's keys as ToOne (named after the
 * target row), keys of other tables pointing here as ToMany (named after the other table).
 */
function relationshipsOf(snapshot: DbSnapshot, self: string, columns: readonly string[], endpoints: readonly ExistingEndpoint[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const names = new Set(columns.map((c) => c.toLowerCase()));
  const add = (name: string, target: ExistingEndpoint, local: string, remote: string, multiplicity: 'ToOne' | 'ToMany'): void => {
    if (names.has(name.toLowerCase()) || !target.columns.includes(remote) || !columns.includes(local)) return;
    names.add(name.toLowerCase());
    out.push({ Name: name, Target: target.routePath, LocalColumn: local, TargetColumn: remote, Multiplicity: multiplicity });
  };
  // several endpoints may serve one object (Inventory/Products and its keyset-paged Inventory/ProductPages):
  // the one named after the object wins, else the first
  const serving = (key: string): ExistingEndpoint | undefined => {
    const all = endpoints.filter((e) => e.object.toLowerCase() === key.toLowerCase());
    const named = localName(key).toLowerCase();
    return all.find((e) => e.routePath.slice(e.routePath.lastIndexOf('/') + 1).toLowerCase() === named) ?? all[0];
  };
  for (const fk of snapshot.objects[self]?.foreignKeys ?? []) {
    const target = serving(fk.references);
    if (target && fk.columns.length === 1) add(singular(localName(fk.references)), target, fk.columns[0]!, fk.referencedColumns[0]!, 'ToOne');
  }
  for (const key of Object.keys(snapshot.objects).sort()) {
    const target = serving(key);
    if (!target || key === self) continue;
    for (const fk of snapshot.objects[key]!.foreignKeys ?? []) {
      if (fk.references === self && fk.columns.length === 1) add(localName(key), target, fk.referencedColumns[0]!, fk.columns[0]!, 'ToMany');
    }
  }
  return out;
}
