/**
 * Static export: renders every URL through the same server (static mode: search runs in the
 * browser over `/_wharf/search-index.json` with the shared engine `/_wharf/search.js`; no rate limit) and writes a tree a
 * plain file server can serve: `index.html`, `<path>/index.html`, `404.html`, `raw/<path>.md`,
 * `feed.xml`, `sitemap.xml`, `robots.txt`, `llms.txt`, `_wharf/*`, `theme/*`, and the docs
 * folder's images and PDFs at their paths.
 * Redirect pages become an HTML refresh to their target (a file server cannot answer 307).
 * Pages carry the Content-Security-Policy as a meta tag (static mode, server.ts): a file server sends none.
 * Absolute URLs (feed, sitemap, robots, llms) use `--base-url`, else `http://localhost`.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pageUrlPath } from '../contract/docs-search.js';
import type { LoadedDocsSite } from './site.js';
import type { DocsSettings } from './settings.js';
import { buildDocsServer } from './server.js';
import { resolveTheme } from './theme.js';
import { builtInAssetNames } from './assets.js';
import { escapeHtml } from './escape.js';

export interface ExportResult {
  readonly files: readonly string[];
}

/** Mermaid (2.8 MB) and KaTeX are only written when some page uses them. */
function neededAsset(name: string, site: LoadedDocsSite): boolean {
  const pages = site.data.pages;
  if (name === 'mermaid.js') return pages.some((p) => p.uses.mermaid);
  if (name.startsWith('katex/')) return pages.some((p) => p.uses.math);
  return true;
}

/** A file server cannot answer 307: a redirect page becomes an HTML refresh to its target. */
export function redirectPage(location: string): string {
  const to = escapeHtml(location);
  return `<!doctype html>\n<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0; url=${to}"><link rel="canonical" href="${to}"><meta name="robots" content="noindex"><title>Moved</title></head><body><a href="${to}">This page has moved.</a></body></html>\n`;
}

export async function exportDocsSite(site: LoadedDocsSite, settings: DocsSettings, outDir: string): Promise<ExportResult> {
  const base = settings.basePath;
  const origin = new URL(settings.baseUrl ?? site.data.baseUrl ?? 'http://localhost');
  const exportSettings = { ...settings, enableHotReload: false, baseUrl: origin.origin };
  const theme = resolveTheme(settings);
  const app = await buildDocsServer({ site, settings: exportSettings, mode: 'static', rateLimitPerMinute: null });
  const targets: [url: string, file: string][] = [
    ['/', 'index.html'],
    ['/feed.xml', 'feed.xml'],
    ['/sitemap.xml', 'sitemap.xml'],
    ['/robots.txt', 'robots.txt'],
    ['/llms.txt', 'llms.txt'],
    ...builtInAssetNames()
      .filter((name) => neededAsset(name, site))
      .map((name): [string, string] => [`/_wharf/${name}`, `_wharf/${name}`]),
    ['/_wharf/search-index.json', '_wharf/search-index.json'],
    ['/__wharf_not_found__', '404.html'],
  ];
  if (theme.css) targets.push(['/_wharf/theme.css', '_wharf/theme.css']);
  if (theme.customCss !== null) targets.push(['/theme/custom.css', 'theme/custom.css']);
  if (theme.customJs !== null) targets.push(['/theme/custom.js', 'theme/custom.js']);
  for (const asset of [...site.assets.values()].map((a) => a.path).sort()) targets.push([`/${asset}`, asset]);
  for (const path of [...site.pages.keys()].sort()) {
    const url = pageUrlPath(path);
    targets.push([`/${url}`, `${path}/index.html`]);
    // `guide/index.md` also answers /guide on the server; give the file server the same.
    const folder = path.endsWith('/index') ? path.slice(0, -'/index'.length) : null;
    if (folder && !site.pages.has(folder)) targets.push([`/${url}`, `${folder}/index.html`]);
    targets.push([`/raw/${url}.md`, `raw/${path}.md`]);
  }
  await rm(outDir, { recursive: true, force: true });
  const written: string[] = [];
  try {
    for (const [url, file] of targets) {
      const response = await app.inject({ method: 'GET', url: `${base}${url}`, headers: { host: origin.host } });
      const expected = file === '404.html' ? 404 : 200;
      const location = response.statusCode === 307 ? String(response.headers['location'] ?? '') : null;
      if (response.statusCode !== expected && !location) throw new Error(`export: GET ${url} answered ${response.statusCode}`);
      const target = join(outDir, file);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, location ? redirectPage(location) : response.rawPayload);
      written.push(file);
    }
  } finally {
    await app.close();
  }
  return { files: written };
}
