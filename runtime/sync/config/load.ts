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
  checkSyncEnvironments,
  SYNC_ENVIRONMENT_FILE,
  SYNC_ENVIRONMENT_SCHEMA,
  SYNC_SERVICE_FILE,
  SYNC_SERVICE_SCHEMA,
} from '../../contract/sync-config.js';
import { WharfError } from '../../errors/wharf-error.js';
import { SETTINGS_KEYWORDS } from '../../contract/settings-registry.js';
import type { ServiceSettings, SyncConfig, SyncEnvironment } from './model.js';
import { normalizeEnvironment, normalizeService } from './normalize.js';

export class SyncConfigError extends Error {
  override readonly name = 'SyncConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid sync configuration:\n  ${problems.join('\n  ')}`);
  }
}

const SCHEMA_DIR = new URL('../../../schemas/', import.meta.url);
let validators: { service: ValidateFunction; environment: ValidateFunction } | null = null;

async function schemaValidators() {
  if (validators) return validators;
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
  ajv.addVocabulary([...SETTINGS_KEYWORDS]);
  const load = async (file: string) => JSON.parse(await readFile(new URL(file, SCHEMA_DIR), 'utf8')) as object;
  validators = {
    service: ajv.compile(await load(SYNC_SERVICE_SCHEMA)),
    environment: ajv.compile(await load(SYNC_ENVIRONMENT_SCHEMA)),
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

/**
 * Service settings from a built-in document (the demo's) with the `Section__Key` variables of `env`
 * laid over it, through the same registry as environments/sync.json (normalizeService).
 */
export async function serviceSettingsOf(
  doc: unknown,
  root: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<ServiceSettings> {
  try {
    return normalizeService(doc, root, env, 'built-in service settings');
  } catch (error) {
    if (error instanceof WharfError) throw new SyncConfigError([error.message]);
    throw error;
  }
}

/**
 * Loads and validates; `root` is the project folder (relative paths resolve against it).
 * `Section__Key` variables of `env` override the service file (normalizeService, through the registry).
 */
export async function loadSyncConfig(
  root: string,
  environmentsDir = path.join(root, 'environments'),
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<LoadedSyncConfig> {
  const files = await readSyncFiles(environmentsDir);
  const validators = await schemaValidators();
  const problems: string[] = [];
  const display = (rel: string) => path.relative(root, path.join(environmentsDir, rel)) || rel;
  let serviceDoc: unknown = {};
  const serviceText = files.get(SYNC_SERVICE_FILE);
  if (serviceText !== undefined) {
    serviceDoc = parse(display(SYNC_SERVICE_FILE), serviceText, problems);
    if (serviceDoc !== undefined) problems.push(...schemaProblems(display(SYNC_SERVICE_FILE), validators.service, serviceDoc));
  }
  const environments: SyncEnvironment[] = [];
  const documents: { name: string; file: string; doc: unknown }[] = [];
  for (const [rel, text] of files) {
    if (rel === SYNC_SERVICE_FILE) continue;
    const file = display(rel);
    const doc = parse(file, text, problems);
    if (doc === undefined) continue;
    const before = problems.length;
    problems.push(...schemaProblems(file, validators.environment, doc));
    if (problems.length === before) problems.push(...checkSyncEnvironment(doc).map((p) => `${file}: ${p.pointer} ${p.message}`));
    if (problems.length === before) {
      environments.push(normalizeEnvironment(rel.split('/')[0] as string, file, doc));
      documents.push({ name: rel.split('/')[0] as string, file, doc });
    }
  }
  for (const { environment, problem } of checkSyncEnvironments(documents)) {
    problems.push(`${documents.find((d) => d.name === environment)?.file ?? environment}: ${problem.pointer} ${problem.message}`);
  }
  let service: ServiceSettings | null = null;
  if (problems.length === 0) {
    try {
      service = normalizeService(serviceDoc, root, env, display(SYNC_SERVICE_FILE));
    } catch (error) {
      if (!(error instanceof WharfError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length > 0 || service === null) throw new SyncConfigError(problems);
  return { config: { service, environments }, fingerprint: fingerprintOf(files) };
}
