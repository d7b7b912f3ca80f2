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
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import {
  checkSyncEnvironment,
  SYNC_ENVIRONMENT_FILE,
  SYNC_ENVIRONMENT_SCHEMA,
  SYNC_SERVICE_FILE,
  SYNC_SERVICE_SCHEMA,
} from '../../runtime/contract/sync-config.js';
import { SETTINGS_KEYWORDS } from '../../runtime/settings/registry.js';
import { sortDiagnostics, type Diagnostic } from '../diagnostics.js';
import { lineIndex, pointerSegments } from '../parse.js';
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

function nodeAt(tree: Node | undefined, ptr: string): Node | undefined {
  let segments = pointerSegments(ptr);
  while (tree) {
    const node = findNodeAtLocation(tree, segments.map((s) => (/^\d+$/.test(s) ? Number(s) : s)));
    if (node || segments.length === 0) return node ?? tree;
    segments = segments.slice(0, -1);
  }
  return undefined;
}

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
export function validateSyncFile(file: string, rawText: string, kind: 'service' | 'environment'): Diagnostic[] {
  const text = rawText.charCodeAt(0) === 0xfeff ? rawText.slice(1) : rawText;
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const at = lineIndex(text);
  if (errors.length > 0 || !tree) {
    const first = errors[0];
    const pos = at(first?.offset ?? 0);
    return [{ severity: 'error', code: 'json-syntax', file, line: pos.line, column: pos.column, pointer: '', message: `Invalid JSON: ${first ? printParseErrorCode(first.error) : 'empty file'} at line ${pos.line}, column ${pos.column}` }];
  }
  const value = JSON.parse(text) as unknown;
  const validate = compiled()[kind];
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const push = (code: string, ptr: string, message: string, atKey = false) => {
    const key = `${code}\0${ptr}\0${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    const node = nodeAt(tree, ptr);
    const target = atKey && node?.parent?.type === 'property' ? node.parent.children?.[0] : node;
    const pos = at(target?.offset ?? 0);
    out.push({ severity: code === 'unknown-property' ? 'warning' : 'error', code, file, line: pos.line, column: pos.column, pointer: ptr, message });
  };
  if (!validate(value)) {
    for (const err of validate.errors ?? []) {
      if (err.keyword === 'if') continue;
      const d = describe(err);
      push(d.code, d.ptr, d.message, d.atKey);
    }
  } else if (kind === 'environment') {
    for (const p of checkSyncEnvironment(value)) push(p.code, p.pointer, p.message);
  }
  return sortDiagnostics(out);
}

/** Every sync file of the project's environments/ folder. */
export async function validateSyncConfig(root: string): Promise<Diagnostic[]> {
  const dir = path.join(root, 'environments');
  const out: Diagnostic[] = [];
  const service = path.join(dir, SYNC_SERVICE_FILE);
  if (existsSync(service)) out.push(...validateSyncFile(`environments/${SYNC_SERVICE_FILE}`, readFileSync(service, 'utf8'), 'service'));
  const folders = existsSync(dir) ? (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort() : [];
  for (const folder of folders) {
    const file = path.join(dir, folder, SYNC_ENVIRONMENT_FILE);
    if (existsSync(file)) out.push(...validateSyncFile(`environments/${folder}/${SYNC_ENVIRONMENT_FILE}`, readFileSync(file, 'utf8'), 'environment'));
  }
  return out;
}
