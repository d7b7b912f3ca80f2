/**
 * The database snapshot (`endpoints/database.snapshot.json`, written by `wharf db pull`): what the
 * catalogue of an environment's database says about every object the endpoints name and every
 * object of the schemas they use. Committed and deterministic (canonical JSON, objects keyed by
 * `schema.name`, columns and parameters in catalogue order, no timestamps). The compiler checks
 * entity.json against it and types openapi.json with it; the runtime and `wharf check --db`
 * compare it with the live catalogue (drift). Shared by both sides, so it lives in the contract.
 */

export const DB_SNAPSHOT_FORMAT = 1;
/** Where the snapshot lives, relative to the project root; the build copies it into generated/. */
export const DB_SNAPSHOT_FILE = 'endpoints/database.snapshot.json';
export const DB_SNAPSHOT_OUTPUT = 'database.snapshot.json';

export type SnapshotObjectType = 'Table' | 'View' | 'Function' | 'Procedure';

export interface SnapshotColumn {
  readonly name: string;
  /** data_type as the catalogue spells it (`integer`, `numeric`, `nvarchar`). */
  readonly type: string;
  readonly nullable: boolean;
  /** Character length limit; absent when unlimited or not a character type. */
  readonly maxLength?: number;
  readonly precision?: number;
  readonly scale?: number;
  /** Default expression text; absent when none. */
  readonly default?: string;
  /** The database fills it (identity / serial). */
  readonly identity?: boolean;
  /** Computed by the database (generated / computed column). */
  readonly generated?: boolean;
}

export interface SnapshotParameter {
  readonly name: string;
  readonly type: string;
  readonly mode: 'IN' | 'INOUT' | 'OUT';
  readonly hasDefault?: boolean;
}

export interface SnapshotForeignKey {
  readonly name: string;
  readonly columns: readonly string[];
  /** `schema.name` of the referenced object. */
  readonly references: string;
  readonly referencedColumns: readonly string[];
}

export interface SnapshotObject {
  readonly type: SnapshotObjectType;
  /** Tables, views and the result columns of a table-valued function. */
  readonly columns: readonly SnapshotColumn[];
  readonly primaryKey?: readonly string[];
  /** Columns of each UNIQUE constraint (by constraint name). */
  readonly unique?: readonly (readonly string[])[];
  readonly foreignKeys?: readonly SnapshotForeignKey[];
  readonly parameters?: readonly SnapshotParameter[];
}

export interface DbSnapshot {
  readonly format: number;
  /** `postgres` (PostgreSQL and the embedded demo) or `mssql`: how the type names are spelt. */
  readonly dialect: 'postgres' | 'mssql';
  /** `schema.name` -> object. */
  readonly objects: Readonly<Record<string, SnapshotObject>>;
}

export function objectKey(schema: string, name: string): string {
  return `${schema}.${name}`;
}

/** Parse a snapshot text; throws an Error naming what is wrong. */
export function parseDbSnapshot(text: string): DbSnapshot {
  const value = JSON.parse(text) as Partial<DbSnapshot>;
  if (value === null || typeof value !== 'object') throw new Error('the snapshot is not a JSON object');
  if (value.format !== DB_SNAPSHOT_FORMAT) throw new Error(`unknown snapshot format ${String(value.format)} (this Wharf reads format ${DB_SNAPSHOT_FORMAT}); run \`wharf db pull\` again`);
  if (value.dialect !== 'postgres' && value.dialect !== 'mssql') throw new Error(`unknown dialect ${String(value.dialect)}`);
  if (value.objects === null || typeof value.objects !== 'object' || Array.isArray(value.objects)) throw new Error('"objects" is missing');
  for (const [key, object] of Object.entries(value.objects as Record<string, unknown>)) checkObject(key, object);
  return value as DbSnapshot;
}

const OBJECT_TYPES: readonly string[] = ['Table', 'View', 'Function', 'Procedure'];
const isNamed = (v: unknown): v is { name: string; type: string } =>
  typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string' && typeof (v as { type?: unknown }).type === 'string';

function checkObject(key: string, object: unknown): void {
  const o = object as Partial<SnapshotObject> | null;
  if (!key.includes('.') || o === null || typeof o !== 'object') throw new Error(`objects["${key}"] is not a schema.name object`);
  if (!OBJECT_TYPES.includes(String(o.type))) throw new Error(`objects["${key}"].type must be one of ${OBJECT_TYPES.join(', ')}`);
  if (!Array.isArray(o.columns) || !o.columns.every((c) => isNamed(c) && typeof (c as { nullable?: unknown }).nullable === 'boolean')) {
    throw new Error(`objects["${key}"].columns must be a list of {name, type, nullable}`);
  }
  if (o.parameters !== undefined && (!Array.isArray(o.parameters) || !o.parameters.every(isNamed))) throw new Error(`objects["${key}"].parameters must be a list of {name, type, mode}`);
  if (o.primaryKey !== undefined && (!Array.isArray(o.primaryKey) || !o.primaryKey.every((c) => typeof c === 'string'))) throw new Error(`objects["${key}"].primaryKey must be a list of column names`);
}

/**
 * An object by schema and name, exact first, else ignoring case unless `caseSensitive` (Wharf
 * quotes identifiers: PostgreSQL then matches them exactly, SQL Server by its collation, usually
 * ignoring case).
 */
export function findObject(snapshot: DbSnapshot, schema: string, name: string, caseSensitive = false): SnapshotObject | undefined {
  const exact = snapshot.objects[objectKey(schema, name)];
  if (exact || caseSensitive) return exact;
  const lower = objectKey(schema, name).toLowerCase();
  const key = Object.keys(snapshot.objects).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : snapshot.objects[key];
}

export function findColumn(object: SnapshotObject, name: string, caseSensitive = false): SnapshotColumn | undefined {
  const exact = object.columns.find((c) => c.name === name);
  if (exact || caseSensitive) return exact;
  return object.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
}

/** Whether names must match in case: PostgreSQL (quoted identifiers), not SQL Server. */
export function namesAreCaseSensitive(snapshot: DbSnapshot): boolean {
  return snapshot.dialect === 'postgres';
}

/** JSON Schema (OpenAPI 3.2 / 2020-12 subset) of a column's values as the gateway returns them. */
export function columnJsonSchema(column: SnapshotColumn): Record<string, unknown> {
  const base = baseSchema(column.type);
  const nullable = column.nullable;
  const type = base.type;
  const out: Record<string, unknown> = { ...base, type: nullable ? [type, 'null'] : type };
  if (column.maxLength !== undefined && type === 'string' && column.maxLength > 0) out['maxLength'] = column.maxLength;
  if (column.identity || column.generated) out['readOnly'] = true;
  return out;
}

/** TypeScript type of a column's values. */
export function columnTsType(column: SnapshotColumn): string {
  const { type } = baseSchema(column.type);
  const ts = type === 'integer' || type === 'number' ? 'number' : type === 'boolean' ? 'boolean' : type === 'string' ? 'string' : 'unknown';
  return column.nullable && ts !== 'unknown' ? `${ts} | null` : ts;
}

function baseSchema(dataType: string): { type: string; format?: string } {
  const t = dataType.toLowerCase().replace(/\(.*$/, '').trim();
  if (/^(smallint|integer|int|int2|int4|tinyint|smallserial|serial)$/.test(t)) return { type: 'integer', format: 'int32' };
  // int8 and numeric come back as a number, or as the decimal text when a double would lose digits
  if (/^(int8|bigint|bigserial)$/.test(t)) return { type: 'integer', format: 'int64' };
  if (/^(numeric|decimal|money|smallmoney)$/.test(t)) return { type: 'number', format: 'decimal' };
  if (/^(real|float4)$/.test(t)) return { type: 'number', format: 'float' };
  if (/^(float|float8|double precision)$/.test(t)) return { type: 'number', format: 'double' };
  if (t === 'boolean' || t === 'bool' || t === 'bit') return { type: 'boolean' };
  if (t === 'date') return { type: 'string', format: 'date' };
  if (/^(timestamp|timestamp without time zone|timestamp with time zone|timestamptz|datetime|datetime2|smalldatetime|datetimeoffset)$/.test(t)) {
    return { type: 'string', format: 'date-time' };
  }
  if (/^(time|time without time zone|time with time zone|timetz)$/.test(t)) return { type: 'string', format: 'time' };
  if (t === 'uuid' || t === 'uniqueidentifier') return { type: 'string', format: 'uuid' };
  if (/^(text|varchar|nvarchar|char|nchar|character|character varying|citext|name|ntext|bpchar|xml)$/.test(t)) return { type: 'string' };
  if (t === 'json' || t === 'jsonb') return { type: 'object' };
  if (t === 'bytea' || t === 'varbinary' || t === 'binary' || t === 'image') return { type: 'string', format: 'byte' };
  return { type: 'string' };
}

/** One difference between the snapshot and a live catalogue. */
export interface SnapshotDrift {
  /** `schema.name`. */
  readonly object: string;
  /** null when the difference is about the object itself. */
  readonly column: string | null;
  readonly expected: string;
  readonly found: string;
}

function describeColumn(c: SnapshotColumn): string {
  const size = c.maxLength !== undefined ? `(${c.maxLength})` : c.precision !== undefined && c.scale !== undefined ? `(${c.precision},${c.scale})` : '';
  return `${c.type}${size} ${c.nullable ? 'null' : 'not null'}${c.identity ? ' identity' : ''}${c.generated ? ' generated' : ''}`;
}

/**
 * Every difference between `expected` (the committed snapshot) and `live` (read now), limited to
 * the objects the snapshot holds: a missing object, a missing, added or changed column, a changed
 * primary key, a missing or changed parameter. Sorted by object, then column.
 */
export function diffSnapshots(expected: DbSnapshot, live: DbSnapshot): SnapshotDrift[] {
  const out: SnapshotDrift[] = [];
  const sameDialect = expected.dialect === live.dialect;
  for (const key of Object.keys(expected.objects).sort()) {
    const want = expected.objects[key]!;
    const have = live.objects[key];
    if (!have) {
      out.push({ object: key, column: null, expected: want.type.toLowerCase(), found: 'missing' });
      continue;
    }
    if (have.type !== want.type) out.push({ object: key, column: null, expected: want.type.toLowerCase(), found: have.type.toLowerCase() });
    for (const c of want.columns) {
      const found = have.columns.find((h) => h.name === c.name);
      if (!found) out.push({ object: key, column: c.name, expected: describeColumn(c), found: 'missing' });
      else if (sameDialect ? describeColumn(found) !== describeColumn(c) : found.nullable !== c.nullable) {
        out.push({ object: key, column: c.name, expected: describeColumn(c), found: describeColumn(found) });
      }
    }
    for (const c of have.columns) {
      if (!want.columns.some((w) => w.name === c.name)) out.push({ object: key, column: c.name, expected: 'absent', found: describeColumn(c) });
    }
    const pk = (o: SnapshotObject): string => (o.primaryKey ?? []).join(', ') || 'none';
    if (pk(want) !== pk(have)) out.push({ object: key, column: null, expected: `primary key ${pk(want)}`, found: `primary key ${pk(have)}` });
    for (const p of want.parameters ?? []) {
      const found = (have.parameters ?? []).find((h) => h.name === p.name);
      if (!found) out.push({ object: key, column: `@${p.name}`, expected: `${p.type} ${p.mode}`, found: 'missing' });
      else if (found.mode !== p.mode || (sameDialect && found.type !== p.type)) {
        out.push({ object: key, column: `@${p.name}`, expected: `${p.type} ${p.mode}`, found: `${found.type} ${found.mode}` });
      }
    }
  }
  return out;
}

/** `inventory.Products.Sku: expected text not null, found missing`. */
export function formatDrift(d: SnapshotDrift): string {
  return `${d.object}${d.column === null ? '' : `.${d.column}`}: expected ${d.expected}, found ${d.found}`;
}
