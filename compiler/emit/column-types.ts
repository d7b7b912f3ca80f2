/** The catalogue columns of an SQL endpoint's object, from the database snapshot (none without one). */
import { findColumn, findObject, type DbSnapshot } from '../../runtime/contract/db-snapshot.js';
import type { SqlEndpoint } from '../../runtime/contract/index.js';
import type { ColumnTypes } from './route-schemas.js';

const UNTYPED: ColumnTypes = () => undefined;

export function columnTypesOf(snapshot: DbSnapshot | null | undefined, model: SqlEndpoint): ColumnTypes {
  if (!snapshot) return UNTYPED;
  const object = findObject(snapshot, model.schema, model.objectName);
  if (!object) return UNTYPED;
  return (db) => findColumn(object, db);
}
