/**
 * `wharf start` serves generated/; `wharf dev` also watches the sources, rebuilds, and asks the
 * running server to swap in each good build (a failed build keeps the last good one serving).
 * Both open the token store in `<root>/data` (Auth:Store:* may point elsewhere); on a store with no
 * token at all they create a demo token and print it once in the banner.
 */
import path from 'node:path';
import { demoTokenLines, ensureDemoToken } from '../../runtime/auth/cli.js';
import { startServer, type StartedServer, type StartServerOptions } from '../../runtime/start.js';
import { watchSources, type Watcher } from '../watch.js';
import type { CliArgs } from './args.js';
import { generatedDir, runBuild, type Printer } from './build-command.js';
import { WATCHED_FOLDERS } from './watch-command.js';

export async function serve(args: CliArgs, extra: Partial<StartServerOptions> = {}): Promise<StartedServer> {
  return startServer({
    ...extra,
    generatedDir: generatedDir(args.root),
    environmentsDir: path.join(args.root, 'environments'),
    dataDir: dataDir(args.root),
    ...(args.port !== undefined ? { port: args.port } : {}),
    ...(args.host !== undefined ? { host: args.host } : {}),
  });
}

/** The gateway's own data (token store): `<root>/data`. */
export function dataDir(root: string): string {
  return path.join(root, 'data');
}

export const CREATE_TOKEN_HINT = 'npx wharf token create --username you';

/**
 * What start and dev print. `demoToken`: the token just created on an empty store (printed this
 * once, with a curl line using it); otherwise a line saying how to create one.
 */
export function banner(server: StartedServer, demoToken: string | null = null): string[] {
  const { url, app } = server;
  const table = app.wharf.routes.current;
  const env = app.wharf.settings.server.environment.allowedEnvironments?.[0] ?? '<env>';
  const example = `'${url}/api/${env}/Inventory/Products?$top=5'`;
  const lines = [
    `Wharf is serving ${table.size} endpoints on ${url}`,
    `  API reference  ${url}/docs`,
    `  OpenAPI        ${url}/openapi.json`,
    `  Liveness       ${url}/health/live`,
    `  Console API    ${url}/ui/api (first start: the administrator and its one-time password are in the log above; docs/console-api.md)`,
  ];
  if (demoToken !== null) return [...lines, ...demoTokenLines(demoToken, example)];
  return [
    ...lines,
    `  Every /api call needs a token: create one with ${CREATE_TOKEN_HINT}`,
    `  Try            curl -H "Authorization: Bearer <token>" ${example}`,
  ];
}

/** Creates the demo token when the store has none at all; its value is returned only then. */
export function demoToken(server: StartedServer): Promise<string | null> {
  return ensureDemoToken(server.app.wharf.access.tokens);
}

function waitForSignal(server: StartedServer): Promise<number> {
  return new Promise((resolve) => {
    const stop = () => {
      void server.close().then(() => resolve(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/**
 * Opens the embedded databases before the first request instead of during it (PGlite takes
 * seconds: the very first start seeds the demo and caches a data directory under .wharf/).
 */
export async function warmEmbeddedDatabases(server: StartedServer, print: Printer): Promise<void> {
  const { sql, settings } = server.app.wharf;
  if (!sql) return;
  for (const [name, env] of settings.environments) {
    if (env.provider !== 'embedded') continue;
    const started = performance.now();
    try {
      await sql.get(name, env);
      print.out(`Embedded database for '${name}' ready in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    } catch (error) {
      print.err(`Embedded database for '${name}' failed to start: ${(error as Error).message}`);
    }
  }
}

export async function runStart(args: CliArgs, print: Printer): Promise<number> {
  const server = await serve(args);
  await warmEmbeddedDatabases(server, print);
  for (const line of banner(server, await demoToken(server))) print.out(line);
  return waitForSignal(server);
}

export interface DevSession {
  readonly server: StartedServer;
  readonly watcher: Watcher;
  close(): Promise<void>;
}

/** Build, serve, watch; each good rebuild is swapped into the running server. */
export async function startDev(
  args: CliArgs,
  print: Printer,
  extra: Partial<StartServerOptions> = {},
): Promise<DevSession> {
  const first = await runBuild(args.root, print, args.docs);
  if (!first.outputs) print.err('Starting with the generated/ already on disk.');
  const server = await serve(args, extra);
  await warmEmbeddedDatabases(server, print);
  const folders = args.docs ? [...WATCHED_FOLDERS, 'docs'] : [...WATCHED_FOLDERS];
  const watcher = watchSources(args.root, folders, async (changed) => {
    const docsChanged = changed.some((f) => f.startsWith('docs/'));
    const result = await runBuild(args.root, print, args.docs && docsChanged);
    if (!result.outputs) {
      print.err('Keeping the last good build serving.');
      return;
    }
    const reload = await server.app.wharf.reload();
    print.out(reload.ok ? `Reloaded: ${reload.endpoints} endpoints.` : `Reload failed, keeping the last good build: ${reload.error}`);
  });
  await watcher.ready;
  print.out(`Watching ${folders.join(', ')}; saved changes are served without a restart.`);
  return {
    server,
    watcher,
    async close() {
      await watcher.close();
      await server.close();
    },
  };
}

export async function runDev(args: CliArgs, print: Printer): Promise<number> {
  const session = await startDev(args, print);
  for (const line of banner(session.server, await demoToken(session.server))) print.out(line);
  const code = await waitForSignal(session.server);
  await session.watcher.close();
  return code;
}
