/**
 * The catalogue reader: what INFORMATION_SCHEMA (PostgreSQL, the embedded PGlite demo, SQL Server)
 * says about the objects of some schemas, as a DbSnapshot (runtime/contract/db-snapshot.ts).
 * `wharf db pull` writes it, `wharf check --db` and the startup drift check compare it with the
 * committed snapshot, and the `$filter` type checker reads the columns of one object through
 * `readColumns` (column-types.ts). Only catalogue views are read, never a row of data.
 */
import {
  DB_SNAPSHOT_FORMAT,
  objectKey,
  type DbSnapshot,
  type SnapshotColumn,
  type SnapshotForeignKey,
  type SnapshotObject,
  type SnapshotParameter,
} from '../contract/db-snapshot.js';
import type { Row, SqlDriver } from './drivers/driver.js';
import type { ObjectRef, TypedValue } from './plan.js';

type Provider = SqlDriver['provider'];

const placeholders = (provider: Provider): [string, string] => (provider === 'mssql' ? ['@p1', '@p2'] : ['$1', '$2']);
const text = (value: string): TypedValue => ({ type: 'string', value });
const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const num = (v: unknown): number | undefined => (v === null || v === undefined || v === '' ? undefined : Number(v));

/** Columns of one object (`p2` = its name) or of every object of a schema (no `p2`). */
function columnsQuery(provider: Provider, oneObject: boolean): string {
  const [p1, p2] = placeholders(provider);
  const extra =
    provider === 'mssql'
      ? `COLUMNPROPERTY(OBJECT_ID(QUOTENAME(TABLE_SCHEMA) + '.' + QUOTENAME(TABLE_NAME)), COLUMN_NAME, 'IsIdentity') AS is_identity,
         COLUMNPROPERTY(OBJECT_ID(QUOTENAME(TABLE_SCHEMA) + '.' + QUOTENAME(TABLE_NAME)), COLUMN_NAME, 'IsComputed') AS is_generated`
      : `is_identity AS is_identity, is_generated AS is_generated`;
  return `SELECT TABLE_NAME AS tbl, COLUMN_NAME AS col_name, DATA_TYPE AS col_type, IS_NULLABLE AS nullable,
    CHARACTER_MAXIMUM_LENGTH AS max_length, NUMERIC_PRECISION AS num_precision, NUMERIC_SCALE AS num_scale,
    COLUMN_DEFAULT AS col_default, ORDINAL_POSITION AS ordinal, ${extra}
    FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ${p1}${oneObject ? ` AND TABLE_NAME = ${p2}` : ''}
    ORDER BY TABLE_NAME, ORDINAL_POSITION`;
}

function toColumn(row: Row): SnapshotColumn {
  const type = str(row['col_type']);
  const maxLength = num(row['max_length']);
  const precision = num(row['num_precision']);
  const scale = num(row['num_scale']);
  const def = row['col_default'];
  const identity = row['is_identity'] === 'YES' || row['is_identity'] === 1 || (typeof def === 'string' && /^nextval\(/i.test(def));
  const generated = row['is_generated'] === 'ALWAYS' || row['is_generated'] === 1;
  const exact = /^(numeric|decimal)$/i.test(type);
  return {
    name: str(row['col_name']),
    type,
    nullable: str(row['nullable']).toUpperCase() === 'YES',
    ...(maxLength !== undefined && maxLength > 0 ? { maxLength } : {}),
    ...(exact && precision !== undefined ? { precision } : {}),
    ...(exact && scale !== undefined ? { scale } : {}),
    ...(typeof def === 'string' && !identity && !generated ? { default: def } : {}),
    ...(identity ? { identity: true } : {}),
    ...(generated ? { generated: true } : {}),
  };
}

/** The columns of one table or view in catalogue order (empty when the catalogue does not list it). */
export async function readColumns(driver: SqlDriver, ref: ObjectRef): Promise<SnapshotColumn[]> {
  const rows = await driver.query(columnsQuery(driver.provider, true), [text(ref.schema), text(ref.object)]);
  return rows.map(toColumn);
}

function objectsQuery(provider: Provider): string {
  const [p1] = placeholders(provider);
  return `SELECT TABLE_NAME AS name, TABLE_TYPE AS kind FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = ${p1} ORDER BY TABLE_NAME`;
}

/** Primary key and unique constraints' columns, and foreign keys with the columns they reference. */
function keysQuery(provider: Provider): string {
  const [p1] = placeholders(provider);
  return `SELECT tc.TABLE_NAME AS tbl, tc.CONSTRAINT_NAME AS name, tc.CONSTRAINT_TYPE AS kind, k.COLUMN_NAME AS col, k.ORDINAL_POSITION AS ordinal,
      r.TABLE_SCHEMA AS ref_schema, r.TABLE_NAME AS ref_table, r.COLUMN_NAME AS ref_col
    FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS tc
    JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE k
      ON k.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA AND k.CONSTRAINT_NAME = tc.CONSTRAINT_NAME AND k.TABLE_NAME = tc.TABLE_NAME
    LEFT JOIN INFORMATION_SCHEMA.REFERENTIAL_CONSTRAINTS rc
      ON rc.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA AND rc.CONSTRAINT_NAME = tc.CONSTRAINT_NAME
    LEFT JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE r
      ON r.CONSTRAINT_SCHEMA = rc.UNIQUE_CONSTRAINT_SCHEMA AND r.CONSTRAINT_NAME = rc.UNIQUE_CONSTRAINT_NAME
     AND r.ORDINAL_POSITION = k.POSITION_IN_UNIQUE_CONSTRAINT
    WHERE tc.TABLE_SCHEMA = ${p1} AND tc.CONSTRAINT_TYPE IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY')
    ORDER BY tc.TABLE_NAME, tc.CONSTRAINT_NAME, k.ORDINAL_POSITION`;
}

function routinesQuery(provider: Provider): string {
  const [p1] = placeholders(provider);
  return `SELECT ROUTINE_NAME AS name, SPECIFIC_NAME AS specific, ROUTINE_TYPE AS kind, DATA_TYPE AS returns
    FROM INFORMATION_SCHEMA.ROUTINES WHERE ROUTINE_SCHEMA = ${p1} ORDER BY ROUTINE_NAME, SPECIFIC_NAME`;
}

function parametersQuery(provider: Provider): string {
  const [p1] = placeholders(provider);
  const def = provider === 'mssql' ? 'NULL' : 'PARAMETER_DEFAULT';
  return `SELECT SPECIFIC_NAME AS specific, PARAMETER_NAME AS name, PARAMETER_MODE AS mode, DATA_TYPE AS type, ORDINAL_POSITION AS ordinal, ${def} AS def
    FROM INFORMATION_SCHEMA.PARAMETERS WHERE SPECIFIC_SCHEMA = ${p1} ORDER BY SPECIFIC_NAME, ORDINAL_POSITION`;
}

/** SQL Server lists a table-valued function's result columns here (PostgreSQL: as OUT parameters). */
function routineColumnsQuery(): string {
  return `SELECT TABLE_NAME AS tbl, COLUMN_NAME AS col_name, DATA_TYPE AS col_type, IS_NULLABLE AS nullable,
    CHARACTER_MAXIMUM_LENGTH AS max_length, NUMERIC_PRECISION AS num_precision, NUMERIC_SCALE AS num_scale,
    NULL AS col_default, ORDINAL_POSITION AS ordinal, 0 AS is_identity, 0 AS is_generated
    FROM INFORMATION_SCHEMA.ROUTINE_COLUMNS WHERE TABLE_SCHEMA = @p1 ORDER BY TABLE_NAME, ORDINAL_POSITION`;
}

function groupBy<T>(rows: readonly Row[], key: string, map: (row: Row) => T): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = str(row[key]);
    let list = out.get(k);
    if (!list) out.set(k, (list = []));
    list.push(map(row));
  }
  return out;
}

async function readSchema(driver: SqlDriver, schema: string, objects: Record<string, SnapshotObject>): Promise<void> {
  const p = [text(schema)];
  const [tables, columnRows, keyRows, routines, params, routineCols] = await Promise.all([
    driver.query(objectsQuery(driver.provider), p),
    driver.query(columnsQuery(driver.provider, false), p),
    driver.query(keysQuery(driver.provider), p),
    driver.query(routinesQuery(driver.provider), p),
    driver.query(parametersQuery(driver.provider), p),
    driver.provider === 'mssql' ? driver.query(routineColumnsQuery(), p) : Promise.resolve([]),
  ]);
  const columns = groupBy(columnRows, 'tbl', toColumn);
  const keys = groupBy(keyRows, 'tbl', (r) => r);
  for (const t of tables) {
    const name = str(t['name']);
    const own = keys.get(name) ?? [];
    const primaryKey = own.filter((k) => k['kind'] === 'PRIMARY KEY').map((k) => str(k['col']));
    const fks = new Map<string, { columns: string[]; references: string; referencedColumns: string[] }>();
    for (const k of own.filter((k) => k['kind'] === 'FOREIGN KEY')) {
      const fkName = str(k['name']);
      let fk = fks.get(fkName);
      if (!fk) fks.set(fkName, (fk = { columns: [], references: objectKey(str(k['ref_schema']), str(k['ref_table'])), referencedColumns: [] }));
      fk.columns.push(str(k['col']));
      fk.referencedColumns.push(str(k['ref_col']));
    }
    // sorted here, not by the database's collation, so every database gives the same order
    const uniques = new Map<string, string[]>();
    for (const k of own.filter((k) => k['kind'] === 'UNIQUE')) {
      const list = uniques.get(str(k['name'])) ?? [];
      list.push(str(k['col']));
      uniques.set(str(k['name']), list);
    }
    const unique = [...uniques].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, cols]) => cols);
    const foreignKeys: SnapshotForeignKey[] = [...fks].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([fkName, fk]) => ({ name: fkName, ...fk }));
    objects[objectKey(schema, name)] = {
      type: str(t['kind']).toUpperCase() === 'VIEW' ? 'View' : 'Table',
      columns: columns.get(name) ?? [],
      ...(primaryKey.length ? { primaryKey } : {}),
      ...(unique.length ? { unique } : {}),
      ...(foreignKeys.length ? { foreignKeys } : {}),
    };
  }
  const paramsBySpecific = groupBy(params, 'specific', (r) => r);
  const tvfColumns = groupBy(routineCols, 'tbl', toColumn);
  const seen = new Set<string>();
  const bySpecificName = [...routines].sort((a, b) => (str(a['specific']) < str(b['specific']) ? -1 : str(a['specific']) > str(b['specific']) ? 1 : 0));
  for (const r of bySpecificName) {
    const name = str(r['name']);
    // an overloaded PostgreSQL function: the first by specific name is kept
    if (seen.has(name)) continue;
    seen.add(name);
    const isProcedure = str(r['kind']).toUpperCase() === 'PROCEDURE';
    const all = paramsBySpecific.get(str(r['specific'])) ?? [];
    const parameters: SnapshotParameter[] = [];
    const resultColumns: SnapshotColumn[] = [];
    for (const p of all) {
      const pname = str(p['name']).replace(/^@/, '');
      if (pname === '') continue; // SQL Server's return value
      const mode = str(p['mode']).toUpperCase();
      if (!isProcedure && mode === 'OUT') {
        resultColumns.push({ name: pname, type: str(p['type']), nullable: true });
        continue;
      }
      parameters.push({
        name: pname,
        type: str(p['type']),
        mode: mode === 'INOUT' ? 'INOUT' : mode === 'OUT' ? 'OUT' : 'IN',
        // SQL Server's catalogue does not tell (and a T-SQL function takes every argument, DEFAULT included)
      ...(p['def'] !== null && p['def'] !== undefined ? { hasDefault: true } : {}),
      });
    }
    const tableValued = resultColumns.length > 0 || tvfColumns.has(name) || str(r['returns']).toUpperCase() === 'TABLE';
    if (!isProcedure && !tableValued) continue; // scalar functions are not endpoints
    objects[objectKey(schema, name)] = {
      type: isProcedure ? 'Procedure' : 'Function',
      columns: isProcedure ? [] : [...resultColumns, ...(tvfColumns.get(name) ?? [])],
      parameters,
    };
  }
}

/** Every table, view, table-valued function and procedure of `schemas`, as a snapshot. */
export async function readCatalogue(driver: SqlDriver, schemas: readonly string[]): Promise<DbSnapshot> {
  const objects: Record<string, SnapshotObject> = {};
  // one schema at a time: PGlite serialises queries anyway, and a pool keeps a few connections free
  for (const schema of [...new Set(schemas)].sort()) await readSchema(driver, schema, objects);
  return { format: DB_SNAPSHOT_FORMAT, dialect: driver.provider === 'mssql' ? 'mssql' : 'postgres', objects };
}
