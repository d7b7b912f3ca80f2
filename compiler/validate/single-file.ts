/**
 * Entry of .wharf/dist/validator/validator.mjs (scripts/runtime-dist.mjs): the validation `wharf check` runs, for ONE entity.json
 * given as text, inside the project it would be saved into (the other endpoints are read from
 * disk, so project rules such as duplicate routes and relationship targets judge it the same way).
 * Reserved names are errors, as in `wharf check`. The JSON Schemas are inlined by the bundler.
 * The runtime loads the bundle (runtime/admin/validate-route.ts); it never imports the compiler.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { EntityLocation, ValidatorDiagnostic } from '../../runtime/contract/index.js';
import commonSchema from '../../schemas/common.schema.json' with { type: 'json' };
import compositeSchema from '../../schemas/composite.schema.json' with { type: 'json' };
import filesSchema from '../../schemas/files.schema.json' with { type: 'json' };
import proxySchema from '../../schemas/proxy.schema.json' with { type: 'json' };
import sqlSchema from '../../schemas/sql.schema.json' with { type: 'json' };
import staticSchema from '../../schemas/static.schema.json' with { type: 'json' };
import webhookSchema from '../../schemas/webhook.schema.json' with { type: 'json' };
import { sortDiagnostics } from '../diagnostics.js';
import { discover, ENTITY_FILE } from '../discover.js';
import { parseAndIdentify } from '../entity-contexts.js';
import { SKIP_CODES } from '../skip-codes.js';
import { TYPE_FOLDERS, type DiscoveredEntity, type TypeFolder } from '../stages.js';
import { validate } from './index.js';
import { readDbSnapshot } from '../db-snapshot/read.js';
import { COMMON_SCHEMA, provideSchemas, SCHEMA_FILE, type JsonSchema } from './schema-store.js';

provideSchemas(
  new Map<string, JsonSchema>([
    [COMMON_SCHEMA, commonSchema],
    [SCHEMA_FILE.sql, sqlSchema],
    [SCHEMA_FILE.proxy, proxySchema],
    [SCHEMA_FILE.composite, compositeSchema],
    [SCHEMA_FILE.static, staticSchema],
    [SCHEMA_FILE.webhook, webhookSchema],
    [SCHEMA_FILE.files, filesSchema],
  ]),
);

export async function validateEntityText(root: string, location: EntityLocation, text: string): Promise<ValidatorDiagnostic[]> {
  if (!TYPE_FOLDERS.includes(location.typeFolder as TypeFolder)) throw new Error(`unknown type folder '${location.typeFolder}'`);
  const segments = [location.typeFolder, ...location.folders, location.name];
  const file = ['endpoints', ...segments, ENTITY_FILE].join('/');
  const target: DiscoveredEntity = {
    file,
    absolutePath: path.join(root, 'endpoints', ...segments, ENTITY_FILE),
    typeFolder: location.typeFolder as TypeFolder,
    folders: location.folders,
    name: location.name,
  };
  const found = await discover(root);
  const sources = [...found.entities.filter((entity) => entity.file !== file), target];
  const { contexts, diagnostics } = await parseAndIdentify(sources, async (source) =>
    source === target ? text : readFile(source.absolutePath, 'utf8'),
  );
  // the project's database snapshot, as `wharf check` reads it
  diagnostics.push(...validate(contexts, undefined, { dbSnapshot: readDbSnapshot(root).snapshot }));
  return sortDiagnostics(diagnostics.filter((d) => d.file === file).map((d) => (SKIP_CODES.has(d.code) ? { ...d, severity: 'error' as const } : d)));
}
