/** A written row as the client sees it (single and batch writes alike). */
import type { SqlEndpoint } from '../contract/model.js';
import { applyTransforms } from '../transforms/response-transforms.js';
import type { Row } from './drivers/driver.js';

/** A database row (db column names) as the client sees it: exposed names, transforms applied. */
export function shapeRow(endpoint: SqlEndpoint, row: Row | undefined): Row | null {
  if (!row) return null;
  const out: Row = {};
  for (const [name, value] of Object.entries(row)) {
    out[endpoint.columns.find((c) => c.db === name)?.name ?? name] = value;
  }
  return applyTransforms(out, endpoint.responseTransforms);
}
