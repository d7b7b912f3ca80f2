/**
 * Schema validation of one entity against schemas/<kind>.schema.json (ajv, all errors, no
 * defaults: defaults are filled only by model/normalize.ts). ajv errors become Diagnostics.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { EndpointKind } from '../../runtime/contract/index.js';
import type { Diagnostic } from '../diagnostics.js';
import type { EntityContext } from '../stages.js';
import { schemaErrorToDiagnostic } from './schema-errors.js';
import { loadSchemas, SCHEMA_FILE, type JsonSchema } from './schema-store.js';
import { loadValidators, saveValidators, validatorsFileName } from './standalone-validators.js';

export { SCHEMA_FILE } from './schema-store.js';

/** The validator's options (schema.test.ts compiles the schemas with these and the meta-schema check). */
export const VALIDATOR_OPTIONS = { allErrors: true, verbose: true, strict: true, strictTypes: false } as const;

let ajv: Ajv | null = null;
const validators = new Map<EndpointKind, ValidateFunction>();
/** `wharf build`: the folder of the standalone validators (standalone-validators.ts); null = compile. */
let standaloneDir: string | null = null;
let standaloneTried = false;

/** Makes validatorOf load (or, once, make) the standalone validators in `dir` (`wharf build`'s artifacts folder). */
export function useStandaloneValidators(dir: string): void {
  standaloneDir = dir;
}

/** An ajv holding Wharf's entity schemas, with the build's options; `source` keeps the generated code (standalone-validators.ts). */
export function entitySchemasAjv(source: boolean): Ajv {
  // Wharf's own schemas, checked against the meta-schema by schema.test.ts, not on every build
  // (compiling the meta-schema took 40 ms of a one-entity build); no optimisation passes over
  // the generated code (30 ms): the same checks and the same errors, for a validator that runs
  // over a handful of entities per build.
  const instance = new Ajv({ ...VALIDATOR_OPTIONS, validateSchema: false, code: { optimize: false, source } });
  for (const [file, schema] of loadSchemas()) {
    // The key doubles as the base URI, so `common.schema.json#/definitions/X` resolves.
    instance.addSchema(schema as JsonSchema & object, file);
  }
  return instance;
}

/** Every kind's validator from the standalone file in `dir`, made first when absent. */
function standaloneValidators(dir: string): void {
  const kinds = Object.keys(SCHEMA_FILE) as EndpointKind[];
  const fileName = validatorsFileName(loadSchemas(), VALIDATOR_OPTIONS);
  const loaded = loadValidators(dir, fileName, kinds);
  if (loaded) {
    for (const [kind, validate] of loaded) validators.set(kind, validate);
    return;
  }
  ajv = entitySchemasAjv(true);
  for (const kind of kinds) validators.set(kind, compiled(ajv, kind));
  saveValidators(dir, fileName, ajv, SCHEMA_FILE);
}

function compiled(instance: Ajv, kind: EndpointKind): ValidateFunction {
  const validate = instance.getSchema(SCHEMA_FILE[kind]);
  if (!validate) throw new Error(`schema ${SCHEMA_FILE[kind]} did not compile`);
  return validate;
}

/** The validator of one kind, compiled on first use (an incremental build often needs one or two of them). */
function validatorOf(kind: EndpointKind): ValidateFunction {
  if (standaloneDir !== null && !standaloneTried) {
    standaloneTried = true;
    standaloneValidators(standaloneDir);
  }
  const known = validators.get(kind);
  if (known) return known;
  ajv ??= entitySchemasAjv(false);
  const validate = compiled(ajv, kind);
  validators.set(kind, validate);
  return validate;
}

/** Diagnostics for one entity, de-duplicated (ajv repeats errors for the same spot); comment keys pass. */
export function validateSchema(ctx: EntityContext): Diagnostic[] {
  const validate = validatorOf(ctx.kind);
  if (validate(ctx.config)) return [];
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const err of validate.errors ?? []) {
    const d = schemaErrorToDiagnostic(ctx, err);
    if (d === null) continue; // a comment key (x-..., $comment)
    const key = `${d.code}\u0000${d.pointer}\u0000${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}
