/**
 * The server's entry point: `wharf start` (compiled to .wharf/dist/runtime/main.js by `wharf build`,
 * run without any TypeScript loader; `node .wharf/dist/runtime/main.js [--root DIR] [--port N]
 * [--host H]` does the same). Serves <root>/generated with <root>/environments and the token store
 * in <root>/data, prints the banner, and shuts down gracefully on SIGTERM/SIGINT.
 * It loads only the runtime: never the compiler, ts-morph or esbuild.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { handleShutdownSignals } from './lifecycle/graceful-shutdown.js';
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
  handleShutdownSignals(server, {
    deadlineMs: server.app.wharf.settings.server.server.shutdownTimeoutSeconds * 1000,
    delayMs: server.app.wharf.settings.server.server.shutdownDelaySeconds * 1000,
    log: server.app.log,
    ...(beforeClose ? { beforeClose } : {}),
  });
  await warmEmbeddedDatabases(server, print);
  for (const line of banner(server, await demoToken(server), takeFirstAdmin(server))) print.out(line);
  return server;
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
  await serveProject(parseStartArgs(argv));
}

function fail(error: unknown): void {
  process.stderr.write(`wharf: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}

// Run directly (`node .wharf/dist/runtime/main.js`): start. Imported (the `wharf` binary): it calls main().
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch(fail);
}
