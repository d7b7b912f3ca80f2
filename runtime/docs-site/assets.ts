/**
 * Built-in static files of the docs server under `/_wharf/`, each read once on first use:
 * `docs.css`, `themes/{ocean,sepia}.css`, `client.js`, `search.js` (the shared search engine, for a static export's browser
 * search), `katex/katex.min.css` and `katex/fonts/*` (math is rendered at build time; only the
 * stylesheet and fonts are needed, served from here rather than a CDN), `mermaid.js` (the
 * bundled Mermaid build, loaded only by pages with a diagram).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DocsAsset {
  readonly contentType: string;
  readonly body: string | Buffer;
}

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const JS = 'text/javascript; charset=utf-8';
/** Every browser we support takes woff2, the first source in katex.min.css. */
const FONT_TYPES: Readonly<Record<string, string>> = { woff2: 'font/woff2' };

const packageDist = (name: string, file: string): string => join(dirname(require.resolve(`${name}/package.json`)), 'dist', file);
const withoutSourceMap = (text: string): string => text.replace(/\n?\/\/# sourceMappingURL=\S*\s*$/, '\n');

function sources(): Map<string, () => DocsAsset> {
  const map = new Map<string, () => DocsAsset>([
    ['docs.css', () => ({ contentType: 'text/css; charset=utf-8', body: readFileSync(join(here, 'assets', 'docs.css'), 'utf8') })],
    ['client.js', () => ({ contentType: JS, body: readFileSync(join(here, 'assets', 'client.js'), 'utf8') })],
    ['search.js', () => ({ contentType: JS, body: readFileSync(join(here, '..', 'contract', 'docs-search.js'), 'utf8') })],
    ['mermaid.js', () => ({ contentType: JS, body: withoutSourceMap(readFileSync(packageDist('mermaid', 'mermaid.min.js'), 'utf8')) })],
    ...['ocean', 'sepia'].map((name): [string, () => DocsAsset] => [
      `themes/${name}.css`,
      () => ({ contentType: 'text/css; charset=utf-8', body: readFileSync(join(here, 'assets', 'themes', `${name}.css`), 'utf8') }),
    ]),
    ['katex/katex.min.css', () => ({ contentType: 'text/css; charset=utf-8', body: readFileSync(packageDist('katex', 'katex.min.css'), 'utf8') })],
  ]);
  for (const font of readdirSync(packageDist('katex', 'fonts')).sort()) {
    const type = FONT_TYPES[font.slice(font.lastIndexOf('.') + 1)];
    if (type) map.set(`katex/fonts/${font}`, () => ({ contentType: type, body: readFileSync(packageDist('katex', `fonts/${font}`)) }));
  }
  return map;
}

let loaders: Map<string, () => DocsAsset> | null = null;
const loaded = new Map<string, DocsAsset>();

/** Names of every built-in asset (for the static export), sorted. */
export function builtInAssetNames(): string[] {
  loaders ??= sources();
  return [...loaders.keys()].sort();
}

export function builtInAsset(name: string): DocsAsset | undefined {
  loaders ??= sources();
  const hit = loaded.get(name);
  if (hit) return hit;
  const load = loaders.get(name);
  if (!load) return undefined;
  const asset = load();
  loaded.set(name, asset);
  return asset;
}
