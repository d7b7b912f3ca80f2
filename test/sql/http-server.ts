/**
 * A real Wharf server for the HTTP tests: the sample endpoints compiled by the real compiler
 * into a temp generated/, environments `pg` (the test PostgreSQL), `demo` (embedded PGlite) and
 * `down` (PostgreSQL on a closed port), the SQL and Webhook handlers registered the way the
 * runtime does it (registerSqlEndpoints, registerWebhookEndpoints).
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { compile } from '../../compiler/pipeline.js';
import { buildServer } from '../../runtime/server.js';
import type { SqlDrivers } from '../../runtime/sql/drivers/factory.js';
import { registerSqlEndpoints, sqlAreaSettings } from '../../runtime/sql/register.js';
import { registerWebhookEndpoints } from '../../runtime/webhook/register.js';
import { LogCapture } from '../../runtime/testing/test-server.js';
import { ROOT } from './fixtures.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

export interface SqlTestServer {
  readonly app: FastifyInstance;
  readonly logs: LogCapture;
  /** The drivers the SQL and Webhook handlers use (read back what a write stored). */
  readonly drivers: SqlDrivers;
  /** `Authorization` header value of a token for every scope and environment. */
  readonly authorization: string;
  /** The temp project (generated/, environments/, data/ with the token store). */
  readonly root: string;
  close(): Promise<void>;
}

export interface SqlTestServerOptions {
  /** false = no logger; default: info lines captured in `logs`. */
  readonly logger?: boolean;
  /** Log at the configured default level into this stream instead (benchmarks: /dev/null). */
  readonly logStream?: NodeJS.WritableStream;
  /** Top-level settings.json sections replacing the test defaults (rate limits and cache off). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Response cache on (default off). */
  readonly caching?: boolean;
  /** Rate limiting on, with budgets no run exhausts (default off). */
  readonly rateLimiting?: boolean;
  /** Only these of the environments (default all; benchmarks serve `pg` alone, as a production deployment would). */
  readonly environments?: readonly ('pg' | 'demo' | 'down' | 'ms')[];
  /** SQL Server connection string of an environment `ms` (none without it). */
  readonly mssqlUrl?: string;
  /** The token's username (default `sql-tests`): servers sharing one token store need their own. */
  readonly tokenUsername?: string;
  /** Project to compile (default the sample project, ROOT). */
  readonly root?: string;
}

export async function startSqlTestServer(pgUrl: string, closedPort: number, options: SqlTestServerOptions = {}): Promise<SqlTestServer> {
  const result = await compile({ root: options.root ?? ROOT, docs: false });
  if (!result.outputs) throw new Error(`compile failed: ${JSON.stringify(result.diagnostics.slice(0, 3))}`);
  const dir = await mkdtemp(path.join(tmpdir(), 'wharf-sql-http-'));
  const generatedDir = path.join(dir, 'generated');
  for (const file of result.outputs) {
    const target = path.join(generatedDir, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.content);
  }
  const environmentsDir = path.join(dir, 'environments');
  const all: Record<string, unknown> = {
    pg: { Provider: 'postgres', ConnectionString: pgUrl },
    demo: { Provider: 'embedded', ConnectionString: 'embedded://demo' },
    down: { Provider: 'postgres', ConnectionString: `postgres://postgres@127.0.0.1:${closedPort}/postgres` },
    ...(options.mssqlUrl ? { ms: { Provider: 'mssql', ConnectionString: options.mssqlUrl } } : {}),
  };
  const environments = Object.fromEntries(Object.entries(all).filter(([name]) => options.environments?.includes(name as 'pg' | 'ms') ?? true));
  await mkdir(environmentsDir, { recursive: true });
  await writeFile(path.join(environmentsDir, 'settings.json'), JSON.stringify({
    Environment: { ServerName: 'test', AllowedEnvironments: Object.keys(environments) },
    // measured and tested: the SQL path itself, not the response cache or the limiter
    // (benchmarks may turn the limiter on, with budgets no run exhausts)
    RateLimiting: options.rateLimiting ? { Enabled: true, IpLimit: 1_000_000, IpWindow: 1, TokenLimit: 1_000_000, TokenWindow: 1 } : { Enabled: false },
    Caching: { Enabled: options.caching === true },
    ...options.settings,
  }));
  for (const [name, settings] of Object.entries(environments)) {
    await mkdir(path.join(environmentsDir, name), { recursive: true });
    await writeFile(path.join(environmentsDir, name, 'settings.json'), JSON.stringify(settings));
  }
  const logs = new LogCapture();
  const app = await buildServer({
    generatedDir,
    environmentsDir,
    dataDir: path.join(dir, 'data'),
    env: {},
    logger: options.logger === false ? false : options.logStream ? { stream: options.logStream } : { level: 'info', stream: logs },
  });
  const gateway = gatewayOf(app);
  const drivers = registerSqlEndpoints(app, sqlAreaSettings(gateway.settings), gateway.handlers, { embeddedCacheDir: path.join(ROOT, '.wharf') });
  registerWebhookEndpoints(gateway.handlers, drivers);
  const { token } = await gatewayOf(app).access.tokens.create({ username: options.tokenUsername ?? 'sql-tests', allowedScopes: '*', allowedEnvironments: '*' });
  return {
    app,
    logs,
    drivers,
    authorization: `Bearer ${token}`,
    root: dir,
    async close() {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A server with only the embedded demo database (`demo`, PGlite): no PostgreSQL to start. */
export function startEmbeddedTestServer(options: Omit<SqlTestServerOptions, 'environments'> = {}): Promise<SqlTestServer> {
  return startSqlTestServer('postgres://unused', 1, { logger: false, ...options, environments: ['demo'] });
}

/** A server started on a real PostgreSQL of its own: close() stops the server, then the PostgreSQL, then runs `after`. */
async function withOwnPostgres(start: (pg: TestPostgres) => Promise<SqlTestServer>, after: () => Promise<unknown> = async () => undefined): Promise<SqlTestServer> {
  const pg = await startPostgres();
  let server: SqlTestServer;
  try {
    server = await start(pg);
  } catch (error) {
    await pg.stop();
    await after();
    throw error;
  }
  return {
    ...server,
    async close() {
      try {
        await server.close();
      } finally {
        await pg.stop();
        await after();
      }
    },
  };
}

/**
 * A server with a real PostgreSQL of its own (`pg`) and the embedded demo database (`demo`), no
 * logger: close() stops the server, then the PostgreSQL.
 */
export function startPgAndEmbeddedTestServer(): Promise<SqlTestServer> {
  return withOwnPostgres((pg) => startSqlTestServer(pg.url, pg.port + 1, { logger: false, environments: ['pg', 'demo'] }));
}

/**
 * A server on the sample project plus endpoints of a test's own (`SQL/<ns>/<name>` -> entity.json),
 * with a real PostgreSQL of its own (`pg`), the embedded database (`demo`) and, with MSSQL_URL,
 * SQL Server (`ms`). `snapshotObjects` are added to the catalogue snapshot the build checks against
 * (a table the test creates). close() stops the server and the PostgreSQL and removes the project.
 */
export async function startServerWithEndpoints(
  endpoints: Readonly<Record<string, unknown>>,
  snapshotObjects: Readonly<Record<string, unknown>> = {},
): Promise<SqlTestServer> {
  const mssqlUrl = process.env['MSSQL_URL'];
  const root = await mkdtemp(path.join(tmpdir(), 'wharf-endpoints-'));
  const remove = () => rm(root, { recursive: true, force: true });
  try {
    for (const dir of ['endpoints', 'schemas']) await cp(path.join(ROOT, dir), path.join(root, dir), { recursive: true });
    for (const [name, entity] of Object.entries(endpoints)) {
      await mkdir(path.join(root, 'endpoints', name), { recursive: true });
      await writeFile(path.join(root, 'endpoints', name, 'entity.json'), JSON.stringify(entity, null, 2));
    }
    const snapshotFile = path.join(root, 'endpoints/database.snapshot.json');
    const snapshot = JSON.parse(await readFile(snapshotFile, 'utf8')) as { objects: Record<string, unknown> };
    Object.assign(snapshot.objects, snapshotObjects);
    await writeFile(snapshotFile, JSON.stringify(snapshot, null, 2));
  } catch (error) {
    await remove();
    throw error;
  }
  const environments = ['pg', 'demo', ...(mssqlUrl ? ['ms' as const] : [])] as const;
  return withOwnPostgres((pg) => startSqlTestServer(pg.url, pg.port + 1, { logger: false, root, environments: [...environments], ...(mssqlUrl ? { mssqlUrl } : {}) }), remove);
}

/** One request with the server's token; `payload` sent as JSON. */
export function callJson(server: SqlTestServer, method: string, url: string, payload?: unknown) {
  return server.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: server.authorization, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
}
