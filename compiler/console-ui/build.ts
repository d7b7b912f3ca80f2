/**
 * The web console's precompiled assets: esbuild bundles runtime/console-ui (Preact + TSX, CSS)
 * into generated/ui/assets/app.<hash>.js and app.<hash>.css plus generated/ui/index.html, which
 * names them. Content-hashed names let the server cache them for a year; the HTML is never
 * cached. Byte-deterministic: fixed options, minified, no source map, no absolute paths. Nothing
 * is fetched at run time: no CDN, no inline script (the page's CSP forbids both).
 * The sync service's dashboard (runtime/sync/ui -> generated/sync-ui, compiler/sync/dashboard-ui.ts)
 * is built the same way by makeUiBundle.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MadeArtifact } from '../artifact-cache.js';
import type { OutputFile } from '../stages.js';

export const CONSOLE_UI_DIR = 'ui';
const SOURCE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../runtime/console-ui');

function hash(content: string): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 12);
}

export interface UiBundleSpec {
  /** Folder of the Preact sources, with main.tsx. */
  readonly sourceDir: string;
  /** Output folder below generated/. */
  readonly dir: string;
  readonly title: string;
  /** What the page says without JavaScript. */
  readonly noscript: string;
}

const CONSOLE_BUNDLE: UiBundleSpec = {
  sourceDir: SOURCE_DIR,
  dir: CONSOLE_UI_DIR,
  title: 'Wharf console',
  noscript: 'The Wharf console needs JavaScript. Everything it does is also available through /ui/api.',
};

export function consoleHtml(script: string, style: string, spec: UiBundleSpec = CONSOLE_BUNDLE): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${spec.title}</title>`,
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="/ui/assets/${style}">`,
    `<script type="module" src="/ui/assets/${script}"></script>`,
    '</head>',
    '<body>',
    `<div id="app"><noscript>${spec.noscript}</noscript></div>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** Besides the files esbuild reads: this emitter and esbuild itself. */
const TOOL_INPUTS = [fileURLToPath(import.meta.url), path.resolve(SOURCE_DIR, '../../node_modules/esbuild/package.json')];

export async function emitConsoleUi(): Promise<OutputFile[]> {
  return [...(await makeConsoleUi()).files];
}

/** The console's assets and the files they were made from. */
export async function makeConsoleUi(): Promise<MadeArtifact> {
  return makeUiBundle(CONSOLE_BUNDLE);
}

/** A Preact app's assets (script, stylesheet, index.html naming them) and the files they were made from. */
export async function makeUiBundle(spec: UiBundleSpec): Promise<MadeArtifact> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(spec.sourceDir, 'main.tsx')],
    absWorkingDir: spec.sourceDir,
    bundle: true,
    write: false,
    outdir: '/out',
    entryNames: 'app',
    platform: 'browser',
    format: 'esm',
    target: 'es2020',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfigRaw: { compilerOptions: { jsx: 'react-jsx', jsxImportSource: 'preact' } },
    metafile: true,
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
  const css = result.outputFiles.find((f) => f.path.endsWith('.css'));
  if (!js || !css) throw new Error(`${spec.title}: esbuild produced no script or stylesheet`);
  const script = `app.${hash(js.text)}.js`;
  const style = `app.${hash(css.text)}.css`;
  return {
    files: [
      { path: `${spec.dir}/assets/${script}`, content: js.text },
      { path: `${spec.dir}/assets/${style}`, content: css.text },
      { path: `${spec.dir}/index.html`, content: consoleHtml(script, style, spec) },
    ],
    inputs: [...Object.keys(result.metafile.inputs).map((input) => path.resolve(spec.sourceDir, input)), ...TOOL_INPUTS],
  };
}
