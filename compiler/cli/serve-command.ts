/**
 * `wharf start` serves generated/ through the runtime's entry point (runtime/main.ts; the `wharf`
 * binary runs its compiled form when `wharf build` has produced it, and this module only when it
 * has not); `wharf dev` also watches the sources, rebuilds, and asks the running server to swap in
 * each good build (a failed build keeps the last good one serving). Both shut down gracefully on
 * SIGTERM/SIGINT (runtime/lifecycle/graceful-shutdown.ts).
 */
import { dataDir, projectServerOptions, serveProject, startProject } from '../../runtime/main.js';
import { banner, CREATE_TOKEN_HINT, demoToken, warmEmbeddedDatabases } from '../../runtime/serve/banner.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';
import { startServer, type StartedServer, type StartServerOptions } from '../../runtime/start.js';
import { watchSources, type Watcher } from '../watch.js';
import type { CliArgs } from './cli-args.js';
import { runBuild, type Printer } from './build-command.js';
import { WATCHED_FOLDERS } from './watch-command.js';

export { banner, CREATE_TOKEN_HINT, dataDir, demoToken, warmEmbeddedDatabases };

export async function serve(args: CliArgs, extra: Partial<StartServerOptions> = {}): Promise<StartedServer> {
  return startServer({ ...extra, ...projectServerOptions(args) });
}

/** Never resolves: the shutdown handler exits the process. */
const forever = (): Promise<number> => new Promise<number>(() => undefined);

export async function runStart(args: CliArgs, print: Printer): Promise<number> {
  await startProject(args, print);
  return forever();
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
  return { server, ...(await watch(args, print, server)) };
}

async function watch(args: CliArgs, print: Printer, server: StartedServer): Promise<Omit<DevSession, 'server'>> {
  const folders = args.docs ? [...WATCHED_FOLDERS, 'docs'] : [...WATCHED_FOLDERS];
  const watcher = watchSources(args.root, folders, async (changed) => {
    const docsChanged = changed.some((f) => f.startsWith('docs/'));
    const result = await runBuild(args.root, print, args.docs && docsChanged);
    if (!result.outputs) {
      print.err('Keeping the last good build serving.');
      return;
    }
    const reload = await gatewayOf(server.app).reload();
    print.out(reload.ok ? `Reloaded: ${reload.endpoints} endpoints.` : `Reload failed, keeping the last good build: ${reload.error}`);
  });
  await watcher.ready;
  print.out(`Watching ${folders.join(', ')}; saved changes are served without a restart.`);
  return {
    watcher,
    async close() {
      await watcher.close();
      await server.close();
    },
  };
}

/** `wharf dev`: build, then serve (graceful shutdown on SIGTERM/SIGINT, closing the watcher first) and watch. */
export async function runDev(args: CliArgs, print: Printer): Promise<number> {
  const first = await runBuild(args.root, print, args.docs);
  if (!first.outputs) print.err('Starting with the generated/ already on disk.');
  let session: Omit<DevSession, 'server'> | null = null;
  const server = await serveProject(args, print, {}, async () => {
    await session?.watcher.close();
  });
  session = await watch(args, print, server);
  return forever();
}
