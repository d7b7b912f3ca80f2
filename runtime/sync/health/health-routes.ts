/**
 * The sync health routes (spec 3 part B), a fastify plugin on Health:Port, no authentication:
 * /health, /health/connections, /health/state, /health/state/{environment}, /health/deadletters
 * and the JSON index at / (with WebHost:Enabled the dashboard answers / instead: a redirect to
 * /ui, runtime/sync/web/dashboard-routes.ts). /health answers 200 while the process runs; `status` is `healthy` only
 * when every unique database answered its probe (5 s timeout); the evaluation is cached for
 * Health:CacheDurationSeconds, and requests arriving while one runs share it (one connection per
 * database, however many callers).
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { SyncConfig } from '../config/model.js';
import type { DeadLetterStore } from '../state/dead-letters.js';
import type { StateStore, StoredVersion } from '../state/state-store.js';
import type { ConnectionProber } from './connection-prober.js';
import { probeDatabase, type DatabaseProbeTarget, type DriverLookup } from './probes.js';

export const SERVICE_NAME = 'wharf-sync';

const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface HealthSource {
  config(): SyncConfig;
  readonly state: StateStore;
  readonly deadLetters: DeadLetterStore;
  readonly prober: ConnectionProber;
  readonly lookup?: DriverLookup;
  readonly startedAt: number;
  /** The dashboard is on: it owns `/`. */
  readonly dashboard?: boolean;
}

export function uptimeText(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h ${Math.floor((s % 3600) / 60)}m ${s % 60}s`;
}

/** Every unique database of the configuration (by provider and connection string). */
export function uniqueDatabases(config: SyncConfig): DatabaseProbeTarget[] {
  const seen = new Map<string, DatabaseProbeTarget>();
  for (const env of config.environments) {
    for (const connectionString of Object.values(env.connectionStrings)) {
      seen.set(`${env.provider}\0${connectionString}`, { provider: env.provider, connectionString });
    }
  }
  return [...seen.values()];
}

export function databaseStatus(ok: number, total: number): string {
  if (ok === total) return 'ok (all)';
  if (ok === 0) return 'failed (all)';
  return `degraded (${ok}/${total})`;
}

function trackedObject(v: StoredVersion) {
  return { object_name: v.object, stored_procedure_name: null as string | null, last_version: v.version, last_updated: v.updated };
}

export async function healthRoutes(app: FastifyInstance, source: HealthSource): Promise<void> {
  let cached: { at: number; body: Record<string, unknown> } | null = null;

  const procedureOf = (environment: string, object: string): string | null =>
    source.config().environments.find((e) => e.name === environment)?.objects.find((o) => o.name === object)?.procedure ?? null;
  const objectsOf = (rows: StoredVersion[]) => rows.map((v) => ({ ...trackedObject(v), stored_procedure_name: procedureOf(v.environment, v.object) }));

  /** One round of probes; concurrent requests share the round in flight (no connection per caller). */
  let evaluating: Promise<Record<string, unknown>> | null = null;
  const evaluate = async (): Promise<Record<string, unknown>> => {
    const now = Date.now();
    const databases = uniqueDatabases(source.config());
    const started = performance.now();
    const results = await Promise.all(databases.map((d) => probeDatabase(d, source.lookup).then(() => true, () => false)));
    const ok = results.filter(Boolean).length;
    const body = {
      status: ok === databases.length ? 'healthy' : 'degraded',
      service: SERVICE_NAME,
      uptime: uptimeText(now - source.startedAt),
      timestamp: new Date(now).toISOString(),
      version: VERSION,
      checks: { database: { status: databaseStatus(ok, databases.length), response_time_ms: Math.round(performance.now() - started) } },
    };
    cached = { at: now, body };
    return body;
  };

  app.get('/health', async () => {
    const ttl = source.config().service.health.cacheDurationSeconds * 1000;
    const now = Date.now();
    if (cached && now - cached.at < ttl) return { ...cached.body, uptime: uptimeText(now - source.startedAt) };
    evaluating ??= evaluate().finally(() => {
      evaluating = null;
    });
    return evaluating;
  });

  app.get('/health/connections', async () => source.prober.snapshot());

  app.get('/health/state', async () => {
    const byEnvironment = new Map<string, StoredVersion[]>();
    for (const v of source.state.all()) byEnvironment.set(v.environment, [...(byEnvironment.get(v.environment) ?? []), v]);
    return {
      timestamp: new Date().toISOString(),
      total_environments: byEnvironment.size,
      environments: [...byEnvironment].map(([name, rows]) => ({ name, object_count: rows.length, objects: objectsOf(rows) })),
    };
  });

  app.get<{ Params: { environment: string } }>('/health/state/:environment', async (request, reply) => {
    const wanted = request.params.environment.toLowerCase();
    const rows = source.state.all().filter((v) => v.environment.toLowerCase() === wanted);
    if (rows.length === 0) {
      return reply.code(404).send({ success: false, error: `No sync state is stored for environment '${request.params.environment}'` });
    }
    return { environment: rows[0]?.environment, timestamp: new Date().toISOString(), object_count: rows.length, objects: objectsOf(rows) };
  });

  app.get('/health/deadletters', async () => source.deadLetters.summary());

  if (source.dashboard) return;
  app.get('/', async () => ({
    service: SERVICE_NAME,
    routes: {
      health: '/health',
      connections: '/health/connections',
      state: '/health/state',
      environment_state: '/health/state/{environment}',
      deadletters: '/health/deadletters',
    },
  }));
}
