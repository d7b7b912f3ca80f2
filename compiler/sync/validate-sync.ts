/**
 * `wharf build` / `wharf check` also validate the sync configuration (environments/sync.json and
 * environments/<env>/sync.json) against schemas/sync/*.schema.json and the shared semantic rules
 * (runtime/contract/sync-config.ts), reported as file:line:column diagnostics like entity.json.
 * Nothing is emitted for sync: `wharf sync` reads the files itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import {
  checkSyncEnvironment,
  checkSyncEnvironments,
  type SyncRuleProblem,
  SYNC_ENVIRONMENT_FILE,
  SYNC_ENVIRONMENT_SCHEMA,
  SYNC_SERVICE_FILE,
  SYNC_SERVICE_SCHEMA,
} from '../../runtime/contract/sync-config.js';
import { SETTINGS_KEYWORDS } from '../../runtime/contract/settings-registry.js';
import { checkSettingsDocument } from '../../runtime/contract/settings-document.js';
import { sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { isJsonSyntaxError, parseJsonFile } from '../json-file.js';
import { checkConfigFile } from '../read-config-file.js';
import { pointerSegments } from '../parse.js';
import { labelOf, pointer } from '../validate/pointer.js';

const SCHEMA_DIR = new URL('../../schemas/', import.meta.url);
let validators: { service: ValidateFunction; environment: ValidateFunction } | null = null;

function compiled() {
  if (validators) return validators;
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictRequired: false });
  ajv.addVocabulary([...SETTINGS_KEYWORDS]);
  const load = (file: string) => JSON.parse(readFileSync(new URL(file, SCHEMA_DIR), 'utf8')) as object;
  validators = { service: ajv.compile(load(SYNC_SERVICE_SCHEMA)), environment: ajv.compile(load(SYNC_ENVIRONMENT_SCHEMA)) };
  return validators;
}

/** Fields whose value a diagnostic never quotes (URLs and connection strings with credentials). */
const SECRET_BEARING = /\/(Url|TokenUrl|ConnectionString)$/;

function describe(err: ErrorObject): { code: string; ptr: string; message: string; atKey?: boolean } {
  const label = labelOf(err.instancePath).replace(/^entity\.json$/, 'sync.json');
  const params = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'required': {
      const missing = String(params['missingProperty']);
      return { code: 'schema-required', ptr: pointer(err.instancePath, missing), message: `${missing} is required${err.instancePath ? ` in ${label}` : ''}` };
    }
    case 'additionalProperties': {
      const name = String(params['additionalProperty']);
      return { code: 'unknown-property', ptr: pointer(err.instancePath, name), message: `'${name}' is not a known property of ${label}`, atKey: true };
    }
    case 'enum':
      return { code: 'schema-enum', ptr: err.instancePath, message: `${label} value ${JSON.stringify(err.data)} is not one of ${(params['allowedValues'] as unknown[]).join(', ')}` };
    case 'type':
      return { code: 'schema-type', ptr: err.instancePath, message: `${label} must be ${String(params['type']).replace(',', ' or ')}` };
    case 'pattern':
      // A URL may carry a password (amqp://user:password@host, ?api_key=): named, never quoted.
      if (SECRET_BEARING.test(err.instancePath)) return { code: 'schema-format', ptr: err.instancePath, message: `${label} does not match ${String(params['pattern'])} (value not shown: it may hold a credential)` };
      return { code: 'schema-format', ptr: err.instancePath, message: `${label} value ${JSON.stringify(err.data)} does not match ${String(params['pattern'])}` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'minLength':
    case 'minItems':
    case 'minProperties':
      return { code: 'schema-range', ptr: err.instancePath, message: `${label} ${err.message ?? 'is out of range'}` };
    default:
      return { code: 'schema-invalid', ptr: err.instancePath, message: `${label} ${err.message ?? 'is invalid'}` };
  }
}

/** Diagnostics of one sync file (`file` relative to the project root). */
export function validateSyncFile(
  file: string,
  rawText: string | Uint8Array,
  kind: 'service' | 'environment',
  /** Problems of rules across environment files (checkSyncEnvironments) found at this file. */
  across: readonly SyncRuleProblem[] = [],
): Diagnostic[] {
  const parsed = parseJsonFile(file, rawText);
  if (isJsonSyntaxError(parsed)) return [parsed];
  const { value } = parsed;
  const validate = compiled()[kind];
  const out: Diagnostic[] = [...parsed.duplicates];
  const seen = new Set<string>();
  const push = (code: string, ptr: string, message: string, atKey = false) => {
    const key = `${code}\0${ptr}\0${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    // The service file is settings (the registry): an unknown key there fails the build like one in settings.json.
    const severity = code === 'unknown-property' && kind === 'environment' ? 'warning' : 'error';
    const hint = code === 'unknown-property' && kind === 'service' ? serviceHint(ptr) : undefined;
    out.push(parsed.diagnostic(severity, code, ptr, message, { atKey, ...(hint ? { hint } : {}) }));
  };
  if (!validate(value)) {
    for (const err of validate.errors ?? []) {
      if (err.keyword === 'if') continue;
      const d = describe(err);
      push(d.code, d.ptr, d.message, d.atKey);
    }
  } else if (kind === 'environment') {
    for (const p of [...checkSyncEnvironment(value), ...across]) push(p.code, p.pointer, p.message);
  }
  return sortDiagnostics(out);
}

/** "did you mean" for an unknown key of environments/sync.json, from the registry's checker. */
function serviceHint(ptr: string): string | undefined {
  const segments = pointerSegments(ptr);
  const doc: Record<string, unknown> = {};
  let node = doc;
  for (const segment of segments.slice(0, -1)) node = (node[segment] = {}) as Record<string, unknown>;
  node[segments.at(-1) ?? ''] = null;
  return checkSettingsDocument(doc, 'sync.json').find((p) => p.code === 'settings-unknown-key')?.hint;
}

/** An environment file's document when it reads, parses and passes its schema (the cross-file rules look at those only). */
function schemaValidDocument(file: string): unknown {
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8').replace(/^\ufeff/, '')) as unknown;
    return compiled().environment(doc) ? doc : undefined;
  } catch {
    return undefined;
  }
}

/** Every sync file of the project's environments/ folder. */
export async function validateSyncConfig(root: string): Promise<Diagnostic[]> {
  const dir = path.join(root, 'environments');
  const out: Diagnostic[] = [];
  const service = path.join(dir, SYNC_SERVICE_FILE);
  const read = (absolutePath: string, file: string, kind: 'service' | 'environment', across: readonly SyncRuleProblem[] = []) =>
    out.push(...checkConfigFile(absolutePath, file, (bytes) => validateSyncFile(file, bytes, kind, across)));
  if (existsSync(service)) read(service, `environments/${SYNC_SERVICE_FILE}`, 'service');
  const folders = existsSync(dir) ? (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort() : [];
  const documents = folders.flatMap((name) => {
    const doc = schemaValidDocument(path.join(dir, name, SYNC_ENVIRONMENT_FILE));
    return doc === undefined ? [] : [{ name, doc }];
  });
  const across = checkSyncEnvironments(documents);
  for (const folder of folders) {
    const file = path.join(dir, folder, SYNC_ENVIRONMENT_FILE);
    const here = across.filter((a) => a.environment === folder).map((a) => a.problem);
    if (existsSync(file)) read(file, `environments/${folder}/${SYNC_ENVIRONMENT_FILE}`, 'environment', here);
  }
  return out;
}
