/**
 * `wharf build`'s memory of the entity validators: ajv's standalone code for the six kinds, made
 * once per set of schemas and ajv version into Wharf's `.wharf/artifacts/entity-validators-<key>.cjs`
 * and loaded with `require` (about 4 ms) instead of compiling a JSON Schema on every build (about
 * 40 ms per kind). The code is what ajv compiles for the same schemas and options, so it returns the
 * same verdicts and the same errors (standalone-validators.test.ts compares them). A file that does
 * not load is made again. `wharf check` never uses it: it compiles the schemas itself. The folder
 * must be inside Wharf's package: the code requires ajv's runtime helpers from its node_modules.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeThroughTempSync } from '../atomic-write.js';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Ajv, ValidateFunction } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import type { EndpointKind } from '../../runtime/contract/index.js';
import type { JsonSchema } from './schema-store.js';

const require = createRequire(import.meta.url);
const PREFIX = 'entity-validators-';
// ajv's CommonJS default export reaches ESM as the module object or the function, depending on the loader
const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (ajv: Ajv, refs: Record<string, string>) => string;

/** The file name for these schemas under these options and this ajv version. */
export function validatorsFileName(schemas: ReadonlyMap<string, JsonSchema>, options: object): string {
  const ajvVersion = (JSON.parse(readFileSync(require.resolve('ajv/package.json'), 'utf8')) as { version: string }).version;
  const hash = createHash('sha256').update(`${ajvVersion}\0${JSON.stringify(options)}\0`);
  for (const [file, schema] of [...schemas].sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`${file}\0${JSON.stringify(schema)}\0`);
  return `${PREFIX}${hash.digest('hex').slice(0, 32)}.cjs`;
}

/** The validators of every kind from `dir`, or null when the file is absent or does not load. */
export function loadValidators(dir: string, fileName: string, kinds: readonly EndpointKind[]): Map<EndpointKind, ValidateFunction> | null {
  try {
    const mod = require(path.join(dir, fileName)) as Record<string, unknown>;
    if (!kinds.every((kind) => typeof mod[kind] === 'function')) return null;
    return new Map(kinds.map((kind) => [kind, mod[kind] as ValidateFunction]));
  } catch {
    return null;
  }
}

/**
 * Writes the standalone code of `ajv`'s schemas (compiled with `code.source`) as `fileName` in
 * `dir`, through a temporary name, and removes the files of other schema sets. Best effort: a
 * read-only install only compiles every time.
 */
export function saveValidators(dir: string, fileName: string, ajv: Ajv, refs: Readonly<Record<EndpointKind, string>>): void {
  try {
    writeThroughTempSync(path.join(dir, fileName), standaloneCode(ajv, { ...refs }));
    for (const name of readdirSync(dir)) if (name.startsWith(PREFIX) && name.endsWith('.cjs') && name !== fileName) rmSync(path.join(dir, name), { force: true });
  } catch {
    // not writable: compiled again next time
  }
}
