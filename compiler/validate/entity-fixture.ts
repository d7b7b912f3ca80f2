/**
 * Test support: EntityContexts from in-memory configs, through the real parse and identify
 * stages, so rule and normalize tests see the same contexts the pipeline builds.
 */
import path from 'node:path';
import type { EntityContext, TypeFolder } from '../stages.js';
import { identify } from '../identify.js';
import { parseEntity } from '../parse.js';

export const FIXTURE_ROOT = '/nonexistent-wharf-root';

/** `entity('SQL/Sales/Orders', {...})` for endpoints/SQL/Sales/Orders/entity.json. */
export function entity(where: string, config: unknown, root = FIXTURE_ROOT): EntityContext {
  const [typeFolder, ...rest] = where.split('/');
  const name = rest[rest.length - 1];
  if (!typeFolder || name === undefined) throw new Error(`bad fixture location ${where}`);
  const file = `endpoints/${where}/entity.json`;
  const { entity: parsed, diagnostics } = parseEntity(
    { file, absolutePath: path.join(root, file), typeFolder: typeFolder as TypeFolder, folders: rest.slice(0, -1), name },
    JSON.stringify(config, null, 2),
  );
  const context = identify(parsed).context;
  if (!context || diagnostics.length > 0) throw new Error(`fixture ${where} does not parse`);
  return context;
}
