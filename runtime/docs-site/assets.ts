/** Built-in static files of the docs server, read once: stylesheet, client script, MiniSearch (for the static export). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DocsAsset {
  readonly contentType: string;
  readonly body: string;
}

let cached: ReadonlyMap<string, DocsAsset> | null = null;

export function builtInAssets(): ReadonlyMap<string, DocsAsset> {
  if (cached) return cached;
  const here = dirname(fileURLToPath(import.meta.url));
  const minisearchMain = createRequire(import.meta.url).resolve('minisearch');
  cached = new Map([
    ['docs.css', { contentType: 'text/css; charset=utf-8', body: readFileSync(join(here, 'assets', 'docs.css'), 'utf8') }],
    ['client.js', { contentType: 'text/javascript; charset=utf-8', body: readFileSync(join(here, 'assets', 'client.js'), 'utf8') }],
    [
      'minisearch.js',
      {
        contentType: 'text/javascript; charset=utf-8',
        body: readFileSync(join(dirname(minisearchMain), '..', 'umd', 'index.js'), 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'),
      },
    ],
  ]);
  return cached;
}
