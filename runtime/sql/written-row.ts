/** A written row as the client sees it (single and batch writes alike). */
import type { SqlEndpoint } from '../contract/model.js';
import { applyTransforms } from '../transforms/response-transforms.js';
import type { Row } from './drivers/driver.js';

/**
 * A database row (db column names) as the client sees it: exposed names, transforms applied.
 * A name the database answered in another case (Babelfish lower-cases OUTPUT columns) still finds
 * its column; the exact name is tried first.
 */
export function shapeRow(endpoint: SqlEndpoint, row: Row | undefined): Row | null {
  if (!row) return null;
  const out: Row = {};
  for (const [name, value] of Object.entries(row)) {
    const lower = name.toLowerCase();
    const column = endpoint.columns.find((c) => c.db === name) ?? endpoint.columns.find((c) => c.db.toLowerCase() === lower);
    out[column?.name ?? name] = value;
  }
  return applyTransforms(out, endpoint.responseTransforms);
}
