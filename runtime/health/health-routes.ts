/**
 * GET /health and GET /health/details (bearer token: runtime/auth/access-hooks.ts isProtectedUrl).
 *   /health          {status, timestamp, cache_expires_in: "15 seconds"}            cached 15 s
 *   /health/details  {status, timestamp, cache_expires_in: "60 seconds", checks, totalDuration, version}  cached 60 s
 * HTTP 503 only when the status is Unhealthy; Healthy and Degraded answer 200. Both carry
 * Cache-Control: public, max-age=<seconds> and Expires. Checks: Database, DatabaseSchema (drift from
 * the committed database snapshot, when the build has one), Diskspace, ProxyEndpoints
 * (through the shared upstream client), then TokenStore (a PostgreSQL token store) and Redis
 * (Redis:Url set): shared-component-checks.ts. The health area also serves /health/live and
 * /health/ready, and returns the monitor: the console subscribes to its changes (onChange).
 */
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { versionWithBuild } from '../serve/package-version.js';
import { databaseCheck } from './database-check.js';
import { diskCheck } from './disk-check.js';
import { readFileStorageSettings } from '../files/storage-settings.js';
import type { Area, GatewayFolders } from '../areas/area.js';
import type { AccessRuntime } from '../auth/access-runtime.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';
import type { RouteTableHolder } from '../routing/route-table-holder.js';
import { isEnvironmentAllowed, type Settings } from '../settings/load-settings.js';
import type { EnvironmentConfig } from '../settings/environments.js';
import type { SqlDrivers } from '../sql/drivers/factory.js';
import { liveRoute } from './live.js';
import { readyRoute } from './ready.js';
import type { Readiness } from '../lifecycle/readiness.js';
import { readTokenStoreSettings } from '../auth/store/open-store.js';
import type { TokenStore } from '../auth/store/token-store.js';
import { hasDbSnapshot, schemaDriftCheck } from './schema-drift-check.js';
import type { HealthReport } from './health-monitor.js';
import { HealthMonitor } from './health-monitor.js';
import { readHealthSettings, type HealthSettings } from './health-settings.js';
import { proxyCheck } from './proxy-check.js';
import { identityProviderCheck, redisCheck, tokenStoreCheck } from './shared-component-checks.js';

export const HEALTH_CACHE_SECONDS = 15;
export const DETAILS_CACHE_SECONDS = 60;

function cached(reply: FastifyReply, seconds: number): FastifyReply {
  return reply
    .header('cache-control', `public, max-age=${seconds}`)
    .header('expires', new Date(Date.now() + seconds * 1000).toUTCString());
}

const statusCode = (report: HealthReport): number => (report.status === 'Unhealthy' ? 503 : 200);

/**
 * The folders the gateway writes to: the SQLite token store's folder (not with the store on
 * PostgreSQL: then data/ may never exist), the Files storage roots when there are Files endpoints,
 * and environments/ (console edits of settings and environments).
 */
function writtenFolders(slice: HealthAreaSettings, routes: RouteTableHolder): string[] {
  const folders = [slice.folders.environmentsDir];
  if (slice.tokenStoreFile !== null) folders.push(path.dirname(slice.tokenStoreFile));
  const files = routes.current.endpoints.filter((endpoint) => endpoint.kind === 'files');
  if (files.length > 0) {
    folders.push(slice.fileStorageDirectory);
    for (const endpoint of files) if (endpoint.kind === 'files' && endpoint.model.storageDirectory) folders.push(endpoint.model.storageDirectory);
  }
  return folders;
}

export interface HealthAreaSettings {
  readonly health: HealthSettings;
  /** The allowed environments, as loaded at start: what the Database and DatabaseSchema checks open. */
  readonly environments: readonly EnvironmentConfig[];
  /** The SQLite token store's file (a folder the disk check watches); null with the store on PostgreSQL. */
  readonly tokenStoreFile: string | null;
  /** FileStorage:StorageDirectory as resolved (watched when there are Files endpoints). */
  readonly fileStorageDirectory: string;
  readonly folders: GatewayFolders;
}

/** The health area's slice: its own settings and the few facts of other areas its checks need. */
export function healthSlice(settings: Settings, folders: GatewayFolders): HealthAreaSettings {
  // from the settings, not the access runtime: a caller-built one (tests) may not carry them
  const store = readTokenStoreSettings(settings.server.source, folders.dataDir);
  return {
    health: readHealthSettings(settings.server),
    environments: [...settings.environments.values()].filter((env) => isEnvironmentAllowed(settings, env.name)),
    tokenStoreFile: store.provider === 'Sqlite' ? store.file : null,
    fileStorageDirectory: readFileStorageSettings(settings.server.source, folders.dataDir).storageDirectory,
    folders,
  };
}

export interface HealthInfra {
  readonly access: AccessRuntime;
  /** The SQL drivers (null when a test brought its own SQL handler). */
  readonly sql: SqlDrivers | null;
  readonly upstream: UpstreamClient;
}

export interface HealthArea {
  /** The checks behind /health; publishes status changes (onChange). */
  readonly monitor: HealthMonitor;
  /** What /health/ready answers; says when the instance finishes (whenFinishing). */
  readonly readiness: Readiness;
}

export const healthArea: Area<HealthAreaSettings, HealthInfra, HealthArea> = {
  name: 'health',
  slice: healthSlice,
  async register(app, context) {
    await app.register(liveRoute);
    const readiness = await readyRoute(app);
    return { monitor: await healthRoutes(app, context.settings, context.endpoints, context.infra), readiness };
  },
};

export async function healthRoutes(app: FastifyInstance, slice: HealthAreaSettings, routes: RouteTableHolder, infra: HealthInfra): Promise<HealthMonitor> {
  const { health: settings, environments, folders } = slice;
  const drivers = (): SqlDrivers | null => infra.sql;
  // a caller-built access runtime (tests) may have no store and no Redis link
  const store = infra.access.store as TokenStore | undefined;
  const checks = settings.enabled
    ? [
        databaseCheck(environments, drivers, settings.databaseTimeoutMs),
        ...(hasDbSnapshot(folders.generatedDir) ? [schemaDriftCheck(environments, folders.generatedDir, drivers, settings.databaseTimeoutMs, app.log)] : []),
        diskCheck(() => writtenFolders(slice, routes), settings.diskWarningPercent, settings.diskCriticalPercent),
        proxyCheck(routes, infra.upstream, settings.proxyTimeoutMs, settings.skipProxy),
        ...(store && store.kind !== 'sqlite' ? [tokenStoreCheck(store)] : []),
        ...(infra.access.redis ? [redisCheck(infra.access.redis)] : []),
        ...(infra.access.jwt ? [identityProviderCheck(infra.access.jwt.settings.issuer, infra.access.jwt.keys)] : []),
      ]
    : [];
  const monitor = new HealthMonitor(checks, settings.refreshSeconds * 1000);
  monitor.onChange((status, previous) => app.log.info({ status, previous }, 'health status changed'));
  // A listening server checks from the start; an inject-only one (tests) from its first health request.
  app.addHook('onListen', async () => monitor.start());
  app.addHook('onClose', () => monitor.stop());

  app.get('/health', async (_request, reply) => {
    const report = await monitor.current();
    cached(reply, HEALTH_CACHE_SECONDS).code(statusCode(report));
    return { status: report.status, timestamp: report.timestamp, cache_expires_in: `${HEALTH_CACHE_SECONDS} seconds` };
  });

  app.get('/health/details', async (_request, reply) => {
    const report = await monitor.current();
    cached(reply, DETAILS_CACHE_SECONDS).code(statusCode(report));
    return {
      status: report.status,
      timestamp: report.timestamp,
      cache_expires_in: `${DETAILS_CACHE_SECONDS} seconds`,
      checks: report.checks,
      totalDuration: report.totalDuration,
      version: versionWithBuild(routes.current.sourceHash),
    };
  });
  return monitor;
}
