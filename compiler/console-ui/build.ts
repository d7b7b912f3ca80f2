/**
 * The web console's precompiled assets: esbuild bundles runtime/console-ui (Preact + TSX, CSS)
 * into generated/ui/assets/app.<hash>.js and app.<hash>.css plus generated/ui/index.html, which
 * names them. Content-hashed names let the server cache them for a year; the HTML is never
 * cached. Byte-deterministic: fixed options, minified, no source map, no absolute paths. Nothing
 * is fetched at run time: no CDN, no inline script (the page's CSP forbids both).
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

export function consoleHtml(script: string, style: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>Wharf console</title>',
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="/ui/assets/${style}">`,
    `<script type="module" src="/ui/assets/${script}"></script>`,
    '</head>',
    '<body>',
    '<div id="app"><noscript>The Wharf console needs JavaScript. Everything it does is also available through /ui/api.</noscript></div>',
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
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(SOURCE_DIR, 'main.tsx')],
    absWorkingDir: SOURCE_DIR,
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
  if (!js || !css) throw new Error('console UI: esbuild produced no script or stylesheet');
  const script = `app.${hash(js.text)}.js`;
  const style = `app.${hash(css.text)}.css`;
  return {
    files: [
      { path: `${CONSOLE_UI_DIR}/assets/${script}`, content: js.text },
      { path: `${CONSOLE_UI_DIR}/assets/${style}`, content: css.text },
      { path: `${CONSOLE_UI_DIR}/index.html`, content: consoleHtml(script, style) },
    ],
    inputs: [...Object.keys(result.metafile.inputs).map((input) => path.resolve(SOURCE_DIR, input)), ...TOOL_INPUTS],
  };
}
