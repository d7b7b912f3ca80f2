/**
 * The server's entry point: `wharf start` (compiled to .wharf/dist/runtime/main.js by `wharf build`,
 * run without any TypeScript loader; `node .wharf/dist/runtime/main.js [--root DIR] [--port N]
 * [--host H]` does the same). Serves <root>/generated with <root>/environments and the token store
 * in <root>/data, prints the banner, and shuts down gracefully on SIGTERM/SIGINT. With
 * Server:Workers above 1 this process supervises that many processes running this module on the
 * same port (lifecycle/workers.ts); `wharf dev` always serves in one (serveProject).
 * It loads only the runtime: never the compiler, ts-morph or esbuild.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import cluster from 'node:cluster';
import { gatewayOf } from './gateway-handle.js';
import { handleShutdownSignals } from './lifecycle/graceful-shutdown.js';
import { planWorkers } from './lifecycle/worker-count.js';
import { followPrimary, printsBanner, runPrimary, tellPrimaryServing } from './lifecycle/workers.js';
import { banner, consolePrinter, demoToken, takeFirstAdmin, warmEmbeddedDatabases, type Printer } from './serve/banner.js';
import { startServer, type StartedServer, type StartServerOptions } from './start.js';

export interface ProjectServeOptions {
  /** Project folder holding generated/, environments/ and data/. */
  readonly root: string;
  readonly port?: number | string | undefined;
  readonly host?: string | undefined;
}

/** The gateway's own data (token store): `<root>/data`. */
export function dataDir(root: string): string {
  return path.join(root, 'data');
}

export function projectServerOptions(options: ProjectServeOptions): StartServerOptions {
  return {
    generatedDir: path.join(options.root, 'generated'),
    environmentsDir: path.join(options.root, 'environments'),
    dataDir: dataDir(options.root),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
  };
}

/** Listen, open the embedded databases, print the banner; SIGTERM/SIGINT shut it down gracefully. */
export async function serveProject(
  options: ProjectServeOptions,
  print: Printer = consolePrinter,
  extra: Partial<StartServerOptions> = {},
  beforeClose?: () => Promise<void>,
): Promise<StartedServer> {
  const server = await startServer({ ...extra, ...projectServerOptions(options) });
  const shutdown = handleShutdownSignals(server, {
    deadlineMs: gatewayOf(server.app).settings.server.server.shutdownTimeoutSeconds * 1000,
    delayMs: gatewayOf(server.app).settings.server.server.shutdownDelaySeconds * 1000,
    log: server.app.log,
    ...(beforeClose ? { beforeClose } : {}),
  });
  followPrimary(shutdown);
  await warmEmbeddedDatabases(server, print);
  // of several workers, the first prints the banner (and creates the demo token) once
  if (printsBanner()) for (const line of banner(server, await demoToken(server), takeFirstAdmin(server))) print.out(line);
  tellPrimaryServing();
  return server;
}

/** This module's file: what each worker runs (the compiled main.js, or main.ts through tsx). */
const MAIN_FILE = fileURLToPath(import.meta.url);

/** `wharf start`: serve here, or with Server:Workers above 1 supervise that many workers running this module. */
export async function startProject(options: ProjectServeOptions, print: Printer = consolePrinter): Promise<void> {
  const plan = cluster.isWorker ? null : await planWorkers(path.join(options.root, 'environments'));
  if (!plan || plan.count === 1) {
    await serveProject(options, print);
    return;
  }
  const args = ['--root', options.root];
  if (options.port !== undefined) args.push('--port', String(options.port));
  if (options.host !== undefined) args.push('--host', options.host);
  const tsx = MAIN_FILE.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : [];
  runPrimary({ count: plan.count, exec: MAIN_FILE, args, execArgv: [...process.execArgv, ...tsx], shutdownTimeoutSeconds: plan.shutdownTimeoutSeconds, logLevel: plan.logLevel });
}

export function parseStartArgs(argv: readonly string[]): ProjectServeOptions {
  const { values } = parseArgs({
    args: [...argv],
    // `--no-docs` is a build option (compiler/cli/commands.ts lists it for start too): accepted here, used by --build;
    // `--demo-upstream` is started by scripts/wharf.mjs before the server
    options: {
      root: { type: 'string' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      build: { type: 'boolean' },
      'no-docs': { type: 'boolean' },
      'demo-upstream': { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });
  return { root: path.resolve(values.root ?? process.cwd()), port: values.port, host: values.host };
}

export async function main(argv: readonly string[]): Promise<void> {
  await startProject(parseStartArgs(argv));
}

function fail(error: unknown): void {
  process.stderr.write(`wharf: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}

// Run directly (`node .wharf/dist/runtime/main.js`): start. Imported (the `wharf` binary): it calls main().
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch(fail);
}
