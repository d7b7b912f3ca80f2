/**
 * Where the sync configuration lives and the semantic rules the JSON Schemas cannot express,
 * shared by `wharf build` (compiler/sync/, file:line diagnostics) and `wharf sync` (runtime/sync/
 * config/load.ts, refuses to start or to hot-reload a bad configuration). Pure; no I/O.
 */
import { connectionStringProblem } from './connection-string.js';
import { destinationProblems, sharedFilePathProblems, type EnvironmentDocument } from './sync-destination-rules.js';

/** environments/sync.json: service settings (optional). */
export const SYNC_SERVICE_FILE = 'sync.json';
/** environments/<env>/sync.json: one environment's tracked objects and destinations. */
export const SYNC_ENVIRONMENT_FILE = 'sync.json';
export const SYNC_SERVICE_SCHEMA = 'sync/service.schema.json';
export const SYNC_ENVIRONMENT_SCHEMA = 'sync/environment.schema.json';

export interface SyncRuleProblem {
  readonly code: 'sync-connection-key' | 'sync-duplicate-name' | 'sync-duplicate-key' | 'sync-connection-string' | 'sync-destination';
  readonly pointer: string;
  readonly message: string;
}

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null);
const escape = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Malformed connection strings (ConnectionStrings by the environment's Provider, default postgres;
 * a Database destination's by its own, default postgres), read with the SQL drivers' grammar: the
 * problem names the key, never the value.
 */
function connectionStringProblems(root: Json, destinations: readonly unknown[]): SyncRuleProblem[] {
  const problems: SyncRuleProblem[] = [];
  const provider = root['Provider'] === 'mssql' || root['Provider'] === 'embedded' ? root['Provider'] : 'postgres';
  for (const [key, text] of Object.entries(asObject(root['ConnectionStrings']) ?? {})) {
    const problem = typeof text === 'string' ? connectionStringProblem(provider, text) : null;
    if (problem) problems.push({ code: 'sync-connection-string', pointer: `/ConnectionStrings/${escape(key)}`, message: problem });
  }
  destinations.forEach((item, i) => {
    const d = asObject(item);
    if (d?.['Type'] !== 'Database' || typeof d['ConnectionString'] !== 'string') return;
    const problem = connectionStringProblem(d['Provider'] === 'mssql' ? 'mssql' : 'postgres', d['ConnectionString']);
    if (problem) problems.push({ code: 'sync-connection-string', pointer: `/Destinations/${i}/ConnectionString`, message: problem });
  });
  return problems;
}

/** Rules over a schema-valid environment document. */
export function checkSyncEnvironment(doc: unknown): SyncRuleProblem[] {
  const root = asObject(doc);
  if (!root) return [];
  const problems: SyncRuleProblem[] = [];
  const keys = Object.keys(asObject(root['ConnectionStrings']) ?? {});
  const names = new Map<string, number>();
  const objects = Array.isArray(root['TrackedObjects']) ? root['TrackedObjects'] : [];
  objects.forEach((item, i) => {
    const o = asObject(item);
    if (!o) return;
    const key = o['ConnectionKey'];
    if (typeof key === 'string' && !keys.includes(key)) {
      problems.push({
        code: 'sync-connection-key',
        pointer: `/TrackedObjects/${i}/ConnectionKey`,
        message: `ConnectionKey '${key}' is not a key of ConnectionStrings (${keys.join(', ') || 'none'})`,
      });
    }
    const name = typeof o['Name'] === 'string' ? o['Name'].toLowerCase() : null;
    if (name !== null) {
      const first = names.get(name);
      if (first !== undefined) {
        problems.push({ code: 'sync-duplicate-name', pointer: `/TrackedObjects/${i}/Name`, message: `Tracked object '${String(o['Name'])}' is already defined at TrackedObjects[${first}] (names are case-insensitive)` });
      } else names.set(name, i);
    }
  });
  const destinationKeys = new Map<string, number>();
  const destinations = Array.isArray(root['Destinations']) ? root['Destinations'] : [];
  destinations.forEach((item, i) => {
    const key = asObject(item)?.['Key'];
    if (typeof key !== 'string') return;
    const first = destinationKeys.get(key.toLowerCase());
    if (first !== undefined) {
      problems.push({ code: 'sync-duplicate-key', pointer: `/Destinations/${i}/Key`, message: `Destination key '${key}' is already used by Destinations[${first}]` });
    } else destinationKeys.set(key.toLowerCase(), i);
  });
  problems.push(...connectionStringProblems(root, destinations));
  problems.push(...destinationProblems(destinations, objects.length).map((p) => ({ code: 'sync-destination' as const, ...p })));
  return problems;
}

/** Rules across the environment documents (schema-valid ones), by environment folder name. */
export function checkSyncEnvironments(environments: readonly EnvironmentDocument[]): { environment: string; problem: SyncRuleProblem }[] {
  return sharedFilePathProblems(environments).map(({ environment, problem }) => ({ environment, problem: { code: 'sync-destination', ...problem } }));
}
