/**
 * Where the sync configuration lives and the semantic rules the JSON Schemas cannot express,
 * shared by `wharf build` (compiler/sync/, file:line diagnostics) and `wharf sync` (runtime/sync/
 * config/load.ts, refuses to start or to hot-reload a bad configuration). Pure; no I/O.
 */

/** environments/sync.json: service settings (optional). */
export const SYNC_SERVICE_FILE = 'sync.json';
/** environments/<env>/sync.json: one environment's tracked objects and destinations. */
export const SYNC_ENVIRONMENT_FILE = 'sync.json';
export const SYNC_SERVICE_SCHEMA = 'sync/service.schema.json';
export const SYNC_ENVIRONMENT_SCHEMA = 'sync/environment.schema.json';

export interface SyncRuleProblem {
  readonly code: 'sync-connection-key' | 'sync-duplicate-name' | 'sync-duplicate-key';
  readonly pointer: string;
  readonly message: string;
}

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null);

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
  return problems;
}
