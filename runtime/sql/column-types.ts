/**
 * Column kinds of a table or view, read once from the database catalogue
 * (INFORMATION_SCHEMA.COLUMNS exists on PostgreSQL, PGlite and SQL Server) and kept per driver.
 * The `$filter` type checker and the key parser use them so a mismatch is a 400 before any SQL
 * runs, the same on every database. Table-valued functions and objects the catalogue does not
 * list get an empty map (nothing is checked; the database still refuses bad values).
 */
import type { SqlEndpoint } from '../contract/model.js';
import type { ObjectRef } from './plan.js';
import { readColumns } from './catalogue.js';
import { keepBounds } from './column-bounds.js';
import { keepReadOnly } from './read-only-columns.js';
import type { SqlDriver } from './drivers/driver.js';
import type { ColumnKinds, ValueKind } from './odata/type-check.js';

const NONE: ColumnKinds = new Map();

/** data_type text (PostgreSQL and SQL Server spellings) -> kind. */
export function kindOfSqlType(dataType: string): ValueKind | null {
  const t = dataType.toLowerCase().replace(/\(.*$/, '').trim();
  if (/^(smallint|integer|int|int2|int4|int8|bigint|tinyint|numeric|decimal|real|float|float4|float8|double precision|money|smallmoney|serial|bigserial)$/.test(t)) return 'number';
  if (/^(text|varchar|nvarchar|char|nchar|character|character varying|citext|name|ntext|bpchar)$/.test(t)) return 'string';
  if (t === 'boolean' || t === 'bool' || t === 'bit') return 'boolean';
  if (t === 'date') return 'date';
  if (/^(timestamp|timestamp without time zone|timestamp with time zone|timestamptz|datetime|datetime2|smalldatetime|datetimeoffset)$/.test(t)) return 'datetime';
  if (/^(time|time without time zone|time with time zone|timetz)$/.test(t)) return 'time';
  if (t === 'uuid' || t === 'uniqueidentifier') return 'guid';
  return null;
}

/** The kinds of an object's columns; their bounds travel with the map (column-bounds.ts). */
export async function readColumnKinds(driver: SqlDriver, ref: ObjectRef): Promise<ColumnKinds> {
  const out = new Map<string, ValueKind>();
  const columns = await readColumns(driver, ref);
  for (const column of columns) {
    const kind = kindOfSqlType(column.type);
    if (kind) out.set(column.name, kind);
  }
  keepBounds(out, columns);
  keepReadOnly(out, columns, driver.provider);
  return out;
}

const cache = new WeakMap<SqlDriver, Map<string, ColumnKinds | Promise<ColumnKinds>>>();

const keys = new WeakMap<ObjectRef, string>();

/** The cache key of an object (kept per ref: a ref from tableRefOf is the same object on every request). */
function keyOf(ref: ObjectRef): string {
  let key = keys.get(ref);
  if (key === undefined) {
    key = `${ref.schema}\u0000${ref.object}`;
    keys.set(ref, key);
  }
  return key;
}

const tableRefs = new WeakMap<SqlEndpoint, ObjectRef | null>();

/** The table or view a read of the endpoint names (null for a table-valued function), one object per loaded endpoint. */
export function tableRefOf(endpoint: SqlEndpoint): ObjectRef | null {
  let ref = tableRefs.get(endpoint);
  if (ref === undefined) {
    ref = endpoint.objectType === 'TableValuedFunction' ? null : { schema: endpoint.schema, object: endpoint.objectName };
    tableRefs.set(endpoint, ref);
  }
  return ref;
}

/**
 * The kinds of an object's columns for this driver, read at first use and then kept: once read,
 * the answer is synchronous (no await on the per-request path). A failed read is not kept (the
 * next request tries again) and yields no kinds, so the request proceeds and reports the
 * database's own error if there is one.
 */
export function columnKindsFor(driver: SqlDriver, ref: ObjectRef | null): ColumnKinds | Promise<ColumnKinds> {
  if (ref === null) return NONE;
  let perDriver = cache.get(driver);
  if (!perDriver) {
    perDriver = new Map();
    cache.set(driver, perDriver);
  }
  const key = keyOf(ref);
  const known = perDriver.get(key);
  if (known !== undefined) return known;
  const map = perDriver;
  const pending = readColumnKinds(driver, ref).then(
    (kinds) => (map.set(key, kinds), kinds),
    () => (map.delete(key), NONE),
  );
  map.set(key, pending);
  return pending;
}
