/**
 * GET   /environments: {server_name, allowed_environments, environments: {<name>: {provider, connection_string: "<CONNECTION_STRING>"}}}
 * PATCH /environments: {server_name?, allowed_environments?, environments?: {<name>: {provider?, connection_string?}}}
 *   - per environment the given fields merge into environments/<name>/settings.json (other fields,
 *     e.g. Headers, are kept); an omitted, empty or masked ("<CONNECTION_STRING>") connection_string
 *     keeps the stored one; a new name creates the folder (names: letters, digits, _ and -; two names
 *     of the patch equal but for case: 400);
 *   - allowed_environments replaces the list and server_name the name (both go to settings.overrides.json);
 *   - every environment is read as it will be before anything is written: a folder that would not
 *     load (the patched one or another) is 409 naming its file, nothing written anywhere;
 *   - each file is written atomically with a .bak of the previous version; the running server
 *     reloads the environments at once and emits `environments_changed`. Answer: the new GET shape.
 *   - with a PostgreSQL token store the change goes first to the shared store, from which every
 *     instance applies it (shared-console-settings.ts).
 * Connection strings never leave the server.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DATABASE_PROVIDERS, loadEnvironments, parseEnvironment } from '../settings/environments.js';
import type { EnvironmentMap } from '../settings/environments.js';
import { overridesPath, readOverrides, setByPath } from '../settings/overrides-file.js';
import { WharfError } from '../errors/wharf-error.js';
import { writeFileAtomic } from './atomic-file.js';
import type { ConsoleGateway } from './console-gateway.js';
import type { ConsoleRuntime } from './console-runtime.js';
import { badRequest, conflict } from './console-errors.js';

export const MASKED_CONNECTION_STRING = '<CONNECTION_STRING>';
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

export interface EnvironmentRouteOptions {
  readonly gateway: Pick<ConsoleGateway, 'settings' | 'replaceEnvironments' | 'forgetEnvironment'>;
  /** Where environments/<name>/settings.json and settings.overrides.json are written. */
  readonly environmentsDir: string;
  readonly console: ConsoleRuntime;
}

function view(gateway: Pick<ConsoleGateway, 'settings'>) {
  const { server, environments } = gateway.settings();
  const listed: Record<string, { provider: string; connection_string: string }> = {};
  for (const env of environments.values()) listed[env.name] = { provider: env.provider, connection_string: MASKED_CONNECTION_STRING };
  return {
    server_name: server.environment.serverName,
    allowed_environments: server.environment.allowedEnvironments ?? [...environments.values()].map((env) => env.name),
    environments: listed,
  };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const BROKEN = 'fix it on disk first; nothing was changed';

async function readRaw(file: string, folder: string): Promise<Json> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return isObject(parsed) ? parsed : {};
  } catch {
    throw conflict(`environments/${folder}/settings.json is not valid JSON (${BROKEN})`);
  }
}

/** The environments once `planned` (folder to settings.json text) is written; a folder that would not load: 409. */
async function checkedEnvironments(dir: string, planned: ReadonlyMap<string, string>): Promise<EnvironmentMap> {
  try {
    return await loadEnvironments(dir, 'environments', planned);
  } catch (error) {
    if (error instanceof WharfError) throw conflict(`${error.message} (${BROKEN})`);
    throw error;
  }
}

/** The new content of one environment's settings.json, validated like a startup load would. */
async function planEnvironment(dir: string, name: string, patch: unknown, existing: EnvironmentMap): Promise<[string, string]> {
  const field = `environments.${name}`;
  if (!NAME.test(name)) throw badRequest(`Environment name '${name}' may only contain letters, digits, _ and -`, field);
  if (!isObject(patch)) throw badRequest(`${field} must be an object`, field);
  const known = existing.get(name.toLowerCase());
  const folder = known?.name ?? name;
  const file = path.join(dir, folder, 'settings.json');
  const raw = await readRaw(file, folder);
  const provider = patch['provider'];
  if (provider !== undefined) {
    if (typeof provider !== 'string' || !DATABASE_PROVIDERS.includes(provider.toLowerCase() as never)) {
      throw badRequest(`${field}.provider must be one of ${DATABASE_PROVIDERS.join(', ')}`, `${field}.provider`);
    }
    raw['Provider'] = provider.toLowerCase();
  }
  const connection = patch['connection_string'];
  if (connection !== undefined && typeof connection !== 'string') throw badRequest(`${field}.connection_string must be a string`, `${field}.connection_string`);
  if (typeof connection === 'string' && connection.trim() !== '' && connection !== MASKED_CONNECTION_STRING) raw['ConnectionString'] = connection;
  const text = `${JSON.stringify(raw, null, 2)}\n`;
  try {
    parseEnvironment(folder, `${folder}/settings.json`, text);
  } catch (error) {
    if (error instanceof WharfError) throw badRequest(error.message.replace(/^[^:]*: /, `${field}: `), field);
    throw error;
  }
  return [file, text];
}

export function environmentRoutes(app: FastifyInstance, options: EnvironmentRouteOptions): void {
  const { gateway } = options;

  app.get('/environments', async () => {
    await options.console.shared?.refresh();
    return view(gateway);
  });

  app.patch('/environments', async (request) => {
    const body = request.body;
    if (!isObject(body)) throw badRequest('The body must be a JSON object');
    const allowed = body['allowed_environments'];
    if (allowed !== undefined && (!Array.isArray(allowed) || !allowed.every((name) => typeof name === 'string' && NAME.test(name)))) {
      throw badRequest('allowed_environments must be a list of environment names (letters, digits, _ and -)', 'allowed_environments');
    }
    const serverName = body['server_name'];
    if (serverName !== undefined && (typeof serverName !== 'string' || serverName.trim() === '' || serverName.length > 100)) {
      throw badRequest('server_name must be 1 to 100 characters', 'server_name');
    }
    const patches = body['environments'] ?? {};
    if (!isObject(patches)) throw badRequest('environments must be an object of environment name to settings', 'environments');
    // `new1` and `NEW1` made two folders, a 500 and a next start refused ("clashes"): one name, one environment
    const names = new Map<string, string>();
    for (const name of Object.keys(patches)) {
      const same = names.get(name.toLowerCase());
      if (same !== undefined) throw badRequest(`Environment names '${same}' and '${name}' are the same (names are case-insensitive)`, `environments.${name}`);
      names.set(name.toLowerCase(), name);
    }
    const dir = options.environmentsDir;
    const writes: [string, string][] = [];
    for (const [name, patch] of Object.entries(patches)) writes.push(await planEnvironment(dir, name, patch, gateway.settings().environments));
    // every environment as it will be, read before anything is written: a broken folder beside the
    // patched ones was found only after the writes (a 500, half of it stored, the server not reloaded)
    const planned = new Map(writes.map(([file, text]) => [path.basename(path.dirname(file)), text]));
    const loaded = await checkedEnvironments(dir, planned);

    const shared = options.console.shared;
    if (shared) {
      // the shared store first (every instance applies it from there); down: 503, nothing changed anywhere
      const settings = new Map<string, unknown>();
      if (allowed !== undefined) settings.set('Environment:AllowedEnvironments', allowed);
      if (serverName !== undefined) settings.set('Environment:ServerName', serverName);
      const environments = new Map([...planned].map(([name, text]) => [name, JSON.parse(text) as Record<string, unknown>]));
      await shared.update({ settings, environments });
    }
    for (const [file, text] of writes) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, text);
    }
    if (allowed !== undefined || serverName !== undefined) {
      const overrides = await readOverrides(dir);
      if (allowed !== undefined) setByPath(overrides, 'Environment:AllowedEnvironments', allowed);
      if (serverName !== undefined) setByPath(overrides, 'Environment:ServerName', serverName);
      await writeFileAtomic(overridesPath(dir), `${JSON.stringify(overrides, null, 2)}\n`);
    }
    gateway.replaceEnvironments(loaded, {
      ...(allowed !== undefined ? { allowedEnvironments: allowed as string[] } : {}),
      ...(serverName !== undefined ? { serverName: serverName as string } : {}),
    });
    for (const name of Object.keys(patches)) await gateway.forgetEnvironment(name);
    const changed = Object.keys(patches);
    request.log.info({ environments: changed, by: request.wharfConsole?.actor?.username }, 'environments changed from the console');
    options.console.events.emit('environments_changed', { environments: changed });
    return view(gateway);
  });
}
