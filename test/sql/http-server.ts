/**
 * A real Wharf server for the HTTP tests: the sample endpoints compiled by the real compiler
 * into a temp generated/, environments `pg` (the test PostgreSQL), `demo` (embedded PGlite) and
 * `down` (PostgreSQL on a closed port), the SQL handler registered the way the runtime does it
 * (registerSqlEndpoints).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { compile } from '../../compiler/pipeline.js';
import { buildServer } from '../../runtime/server.js';
import { registerSqlEndpoints } from '../../runtime/sql/register.js';
import { LogCapture } from '../../runtime/testing/test-server.js';
import { ROOT } from './fixtures.js';

export interface SqlTestServer {
  readonly app: FastifyInstance;
  readonly logs: LogCapture;
  /** `Authorization` header value of a token for every scope and environment. */
  readonly authorization: string;
  close(): Promise<void>;
}

export interface SqlTestServerOptions {
  /** false = no logger; default: info lines captured in `logs`. */
  readonly logger?: boolean;
  /** Log at the configured default level into this stream instead (benchmarks: /dev/null). */
  readonly logStream?: NodeJS.WritableStream;
  /** Top-level settings.json sections replacing the test defaults (rate limits and cache off). */
  readonly settings?: Readonly<Record<string, unknown>>;
}

export async function startSqlTestServer(pgUrl: string, closedPort: number, options: SqlTestServerOptions = {}): Promise<SqlTestServer> {
  const result = await compile({ root: ROOT, docs: false });
  if (!result.outputs) throw new Error(`compile failed: ${JSON.stringify(result.diagnostics.slice(0, 3))}`);
  const dir = await mkdtemp(path.join(tmpdir(), 'wharf-sql-http-'));
  const generatedDir = path.join(dir, 'generated');
  for (const file of result.outputs) {
    const target = path.join(generatedDir, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.content);
  }
  const environmentsDir = path.join(dir, 'environments');
  const environments: Record<string, unknown> = {
    pg: { Provider: 'postgres', ConnectionString: pgUrl },
    demo: { Provider: 'embedded', ConnectionString: 'embedded://demo' },
    down: { Provider: 'postgres', ConnectionString: `postgres://postgres@127.0.0.1:${closedPort}/postgres` },
  };
  await mkdir(environmentsDir, { recursive: true });
  await writeFile(path.join(environmentsDir, 'settings.json'), JSON.stringify({
    Environment: { ServerName: 'test', AllowedEnvironments: Object.keys(environments) },
    // measured and tested: the SQL path itself, not the response cache or the limiter
    RateLimiting: { Enabled: false },
    Caching: { Enabled: false },
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
  registerSqlEndpoints(app, { embeddedCacheDir: path.join(ROOT, '.wharf') });
  const { token } = await app.wharf.access.tokens.create({ username: 'sql-tests', allowedScopes: '*', allowedEnvironments: '*' });
  return {
    app,
    logs,
    authorization: `Bearer ${token}`,
    async close() {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
