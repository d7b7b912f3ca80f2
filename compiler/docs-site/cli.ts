/**
 * `wharf docs build|serve|export`: the composition root of the docs server. It builds the site
 * from the Markdown folder in memory (compiler), loads it (runtime) and serves it, injecting the
 * rebuild callback used by hot reload; or writes a static export and exits; or (`build`) only
 * builds and reports: broken internal links, missing images and bad formulas with file:line,
 * warnings unless `--strict` makes them errors (exit 1), the check CI can run.
 * With `Git:Url` set, serve/export first pull the docs from Git (runtime/docs-site/git-sync.ts).
 *   wharf docs build [--strict]
 *   wharf docs serve [--port N] [--host H] [--base-path /p] [--base-url https://x] [--theme ocean|dir] [--export <dir>] [--strict]
 *   wharf docs export <dir> [--base-path /p] [--base-url https://x] [--strict]
 * Port: --port, else PORT, else 5080. Host: --host, else 127.0.0.1.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatDiagnostic, hasErrors } from '../diagnostics.js';
import { buildDocsSite } from './index.js';
import { loadDocsSite, type LoadedDocsSite } from '../../runtime/docs-site/site.js';
import { BUILT_IN_THEMES, normalizeBasePath, readDocsSettings, type DocsSettings } from '../../runtime/docs-site/settings.js';
import { buildDocsServer, docsControl } from '../../runtime/docs-site/server.js';
import { exportDocsSite } from '../../runtime/docs-site/export.js';
import { readGitSettings } from '../../runtime/docs-site/git-settings.js';
import { createGitSync, type DocsGitSync } from '../../runtime/docs-site/git-sync.js';

export const DEFAULT_DOCS_PORT = 5080;

const USAGE = `usage: wharf docs serve [--port N] [--host H] [--base-path /prefix] [--base-url https://origin] [--theme name|dir] [--export <dir>] [--strict]
       wharf docs export <dir> [--base-path /prefix] [--base-url https://origin] [--theme name|dir] [--strict]
       wharf docs build [--strict]   build in memory and report broken links and missing images (file:line)`;

export interface DocsCommandIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Resolves when the server should stop (default: SIGINT or SIGTERM). */
  readonly stopSignal?: Promise<void>;
}

const defaultIo = (): DocsCommandIo => ({
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
  cwd: process.cwd(),
  env: process.env,
});

export function docsBuilder(cwd: string, settings: DocsSettings, io: Pick<DocsCommandIo, 'err'>, strict = false): () => Promise<LoadedDocsSite> {
  return async () => {
    const result = await buildDocsSite({ root: cwd, docsDir: settings.rootPath, basePath: settings.basePath, baseUrl: settings.baseUrl, strict });
    for (const d of result.diagnostics) io.err(formatDiagnostic(d));
    if (hasErrors(result.diagnostics)) throw new Error(`docs: ${settings.rootPath} has errors; see above`);
    return loadDocsSite(result.files);
  };
}

/** `wharf docs build`: every diagnostic (file:line), then one summary line; 1 when any is an error. */
async function reportBuild(io: DocsCommandIo, settings: DocsSettings, strict: boolean): Promise<number> {
  const started = performance.now();
  const result = await buildDocsSite({ root: io.cwd, docsDir: settings.rootPath, baseUrl: settings.baseUrl, strict });
  for (const d of result.diagnostics) io.err(formatDiagnostic(d));
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = result.diagnostics.length - errors;
  const pages = result.files.filter((f) => f.path.startsWith('pages/')).length;
  const ms = Math.round(performance.now() - started);
  io.out(`docs: ${settings.rootPath}/: ${pages} pages, ${errors} error(s), ${warnings} warning(s) in ${ms} ms${strict ? ' (--strict)' : ''}`);
  return errors > 0 ? 1 : 0;
}

/**
 * With `Git:Url` set (settings file or GIT_* variables): pull once before the first build, so a
 * fresh machine serves the repository's docs; the schedule starts once the server listens. A
 * failed first pull is logged and the folder's current content is served.
 */
async function startGitSync(io: DocsCommandIo, settings: DocsSettings): Promise<DocsGitSync | null> {
  const git = readGitSettings(io.env, io.cwd);
  if (!git.enabled || git.url === null) return null;
  const sync = createGitSync(git, resolve(io.cwd, settings.rootPath), (level, message) => (level === 'error' ? io.err : io.out)(message));
  await sync.syncNow();
  return sync;
}

/** `--theme <name|dir>`: a built-in theme by name, else a theme folder (theme.json, custom.css, custom.js). */
function themeOption(value: string, cwd: string): Partial<DocsSettings> | null {
  if ((BUILT_IN_THEMES as readonly string[]).includes(value.toLowerCase())) return { builtInTheme: value.toLowerCase() };
  const dir = resolve(cwd, value);
  return existsSync(dir) && statSync(dir).isDirectory() ? { themeDir: dir } : null;
}

function waitForSignal(): Promise<void> {
  return new Promise((resolveStop) => {
    process.once('SIGINT', () => resolveStop());
    process.once('SIGTERM', () => resolveStop());
  });
}

export async function runDocsCommand(argv: readonly string[], ioIn?: Partial<DocsCommandIo>): Promise<number> {
  const io = { ...defaultIo(), ...ioIn };
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'base-path': { type: 'string' },
        'base-url': { type: 'string' },
        export: { type: 'string' },
        strict: { type: 'boolean' },
        theme: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, target] = positionals;
  if (values.help || (command !== 'serve' && command !== 'export' && command !== 'build')) {
    (values.help ? io.out : io.err)(USAGE);
    return values.help ? 0 : 2;
  }
  const fromSettings = readDocsSettings(io.env, io.cwd);
  if (!(BUILT_IN_THEMES as readonly string[]).includes(fromSettings.builtInTheme)) {
    io.err(`Docs:Theme ${fromSettings.builtInTheme} is not a built-in theme (${BUILT_IN_THEMES.join(', ')}); using default`);
  }
  const theme = values.theme === undefined ? {} : themeOption(values.theme, io.cwd);
  if (theme === null) {
    io.err(`--theme ${values.theme}: neither a built-in theme (${BUILT_IN_THEMES.join(', ')}) nor a folder\n${USAGE}`);
    return 2;
  }
  const settings: DocsSettings = {
    ...fromSettings,
    ...theme,
    basePath: values['base-path'] !== undefined ? normalizeBasePath(values['base-path']) : fromSettings.basePath,
    baseUrl: values['base-url']?.replace(/\/+$/, '') ?? fromSettings.baseUrl,
  };
  if (command === 'build') return reportBuild(io, settings, values.strict === true);
  const exportDir = command === 'export' ? target : values.export;
  const build = docsBuilder(io.cwd, settings, io, values.strict === true);
  let sync: DocsGitSync | null = null;
  let site: LoadedDocsSite;
  try {
    sync = await startGitSync(io, settings);
    site = await build();
  } catch (error) {
    await sync?.stop();
    io.err((error as Error).message);
    return 1;
  }

  if (exportDir !== undefined) {
    await sync?.stop();
    if (exportDir === '') {
      io.err(`missing export directory\n${USAGE}`);
      return 2;
    }
    const out = resolve(io.cwd, exportDir);
    const result = await exportDocsSite(site, { ...settings, enableHotReload: false }, out);
    io.out(`docs: exported ${site.pages.size} pages (${result.files.length} files) to ${out}`);
    return 0;
  }

  const port = Number(values.port ?? io.env['PORT'] ?? DEFAULT_DOCS_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    await sync?.stop();
    io.err(`--port must be a port number, got ${values.port ?? io.env['PORT']}`);
    return 2;
  }
  const watched = { ...settings, rootPath: resolve(io.cwd, settings.rootPath) };
  const host = values.host ?? '127.0.0.1';
  const app = await buildDocsServer({ site, settings: watched, rebuild: build, logger: false, listenHost: host });
  const address = await app.listen({ port, host });
  io.out(`docs: serving ${site.pages.size} pages of ${settings.rootPath}/ at ${address}${settings.basePath}/` + (settings.enableHotReload ? ' (hot reload on)' : ''));
  sync?.start(() => docsControl(app).reload());
  await (io.stopSignal ?? waitForSignal());
  io.out(`docs: stopping (build version ${docsControl(app).version()})`);
  await sync?.stop();
  await app.close();
  return 0;
}
