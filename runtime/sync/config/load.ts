/**
 * Reads the sync configuration from environments/: `sync.json` (service settings, optional) and
 * every `<env>/sync.json`. Each document is checked against its JSON Schema (schemas/) and the
 * shared semantic rules before it is normalized; a bad file fails the whole load with every
 * problem listed, so a hot reload keeps the previous configuration.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import {
  checkSyncEnvironment,
  SYNC_ENVIRONMENT_FILE,
  SYNC_ENVIRONMENT_SCHEMA,
  SYNC_SERVICE_FILE,
  SYNC_SERVICE_SCHEMA,
} from '../../contract/sync-config.js';
import { connectionStringProblem } from '../../sql/drivers/connection-string.js';
import type { SyncConfig, SyncEnvironment } from './model.js';
import { applyEnvOverrides } from './env-overrides.js';
import type { ServiceSettings } from './model.js';
import { normalizeEnvironment, normalizeService } from './normalize.js';

/** Malformed connection strings, named by pointer and key (never by value): connection-string.ts. */
function connectionProblems(file: string, environment: SyncEnvironment): string[] {
  const problems: string[] = [];
  for (const [key, text] of Object.entries(environment.connectionStrings)) {
    const problem = connectionStringProblem(environment.provider, text);
    if (problem) problems.push(`${file}: /ConnectionStrings/${key} ${problem}`);
  }
  environment.destinations.forEach((d, i) => {
    const problem = d.type === 'Database' ? connectionStringProblem(d.provider, d.connectionString) : null;
    if (problem) problems.push(`${file}: /Destinations/${i}/ConnectionString ${problem}`);
  });
  return problems;
}

export class SyncConfigError extends Error {
  override readonly name = 'SyncConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid sync configuration:\n  ${problems.join('\n  ')}`);
  }
}

const SCHEMA_DIR = new URL('../../../schemas/', import.meta.url);
let validators: { service: ValidateFunction; environment: ValidateFunction; serviceSchema: object } | null = null;

async function schemaValidators() {
  if (validators) return validators;
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
  const load = async (file: string) => JSON.parse(await readFile(new URL(file, SCHEMA_DIR), 'utf8')) as object;
  const serviceSchema = await load(SYNC_SERVICE_SCHEMA);
  validators = {
    service: ajv.compile(serviceSchema),
    environment: ajv.compile(await load(SYNC_ENVIRONMENT_SCHEMA)),
    serviceSchema,
  };
  return validators;
}

async function readOptional(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

export interface LoadedSyncConfig {
  readonly config: SyncConfig;
  /** Hash of every file read: the hot reloader compares it. */
  readonly fingerprint: string;
}

/** Every sync file below `environmentsDir`, relative path -> text. */
export async function readSyncFiles(environmentsDir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const service = await readOptional(path.join(environmentsDir, SYNC_SERVICE_FILE));
  if (service !== null) files.set(SYNC_SERVICE_FILE, service);
  let folders: string[] = [];
  try {
    folders = (await readdir(environmentsDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const folder of folders) {
    const text = await readOptional(path.join(environmentsDir, folder, SYNC_ENVIRONMENT_FILE));
    if (text !== null) files.set(`${folder}/${SYNC_ENVIRONMENT_FILE}`, text);
  }
  return files;
}

export function fingerprintOf(files: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256');
  for (const [file, text] of files) hash.update(file).update('\0').update(text).update('\0');
  return hash.digest('hex');
}

function parse(file: string, text: string, problems: string[]): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as unknown;
  } catch (error) {
    problems.push(`${file}: invalid JSON: ${(error as Error).message}`);
    return undefined;
  }
}

function schemaProblems(file: string, validate: ValidateFunction, doc: unknown): string[] {
  if (validate(doc)) return [];
  return (validate.errors ?? [])
    .filter((e) => e.keyword !== 'if')
    .map((e) => `${file}: ${e.instancePath || '/'} ${e.message ?? 'is invalid'}${e.params && 'additionalProperty' in e.params ? ` ('${String(e.params.additionalProperty)}')` : ''}`);
}

type Env = Readonly<Record<string, string | undefined>>;

/** `doc` (the service file's document) with the `Section__Key` variables of `env` laid over it, checked. */
async function serviceDocument(doc: unknown, label: string, env: Env, problems: string[]): Promise<unknown> {
  const { service, serviceSchema } = await schemaValidators();
  const { document, variables } = applyEnvOverrides(doc, serviceSchema, env);
  const where = variables.length > 0 ? `${label} with environment variable(s) ${variables.join(', ')}` : label;
  problems.push(...schemaProblems(where, service, document));
  return document;
}

/** Service settings from a built-in document plus the environment's overrides (the demo's). */
export async function serviceSettingsOf(doc: unknown, root: string, env: Env = process.env): Promise<ServiceSettings> {
  const problems: string[] = [];
  const document = await serviceDocument(doc, 'built-in service settings', env, problems);
  if (problems.length > 0) throw new SyncConfigError(problems);
  return normalizeService(document, root);
}

/**
 * Loads and validates; `root` is the project folder (relative paths resolve against it).
 * `Section__Key` variables of `env` override the service file (env-overrides.ts).
 */
export async function loadSyncConfig(root: string, environmentsDir = path.join(root, 'environments'), env: Env = process.env): Promise<LoadedSyncConfig> {
  const files = await readSyncFiles(environmentsDir);
  const { environment } = await schemaValidators();
  const problems: string[] = [];
  const display = (rel: string) => path.relative(root, path.join(environmentsDir, rel)) || rel;
  let serviceDoc: unknown = {};
  const serviceText = files.get(SYNC_SERVICE_FILE);
  if (serviceText !== undefined) serviceDoc = parse(display(SYNC_SERVICE_FILE), serviceText, problems);
  if (serviceDoc !== undefined) serviceDoc = await serviceDocument(serviceDoc, display(SYNC_SERVICE_FILE), env, problems);
  const environments: SyncEnvironment[] = [];
  for (const [rel, text] of files) {
    if (rel === SYNC_SERVICE_FILE) continue;
    const file = display(rel);
    const doc = parse(file, text, problems);
    if (doc === undefined) continue;
    const before = problems.length;
    problems.push(...schemaProblems(file, environment, doc));
    if (problems.length === before) problems.push(...checkSyncEnvironment(doc).map((p) => `${file}: ${p.pointer} ${p.message}`));
    if (problems.length === before) {
      const normalized = normalizeEnvironment(rel.split('/')[0] as string, file, doc);
      problems.push(...connectionProblems(file, normalized));
      if (problems.length === before) environments.push(normalized);
    }
  }
  if (problems.length > 0) throw new SyncConfigError(problems);
  return { config: { service: normalizeService(serviceDoc, root), environments }, fingerprint: fingerprintOf(files) };
}
