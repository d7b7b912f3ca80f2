/**
 * buildDocsSite: a Markdown folder -> the precompiled documentation site (files relative to
 * generated/docs/, see runtime/contract/docs-site.ts). Deterministic: sorted paths, no absolute
 * paths; page dates come from front matter, git, or mtime (see dates.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { sortDiagnostics } from '../diagnostics.js';
import type { OutputFile } from '../stages.js';
import {
  DOCS_SITE_FILES,
  docsPathKey,
  DOCS_SITE_SCHEMA_VERSION,
  type DocsPageMeta,
  type DocsSiteData,
} from '../../runtime/contract/docs-site.js';
import { discoverDocs } from './discover.js';
import { parseSiteFile } from './config.js';
import { parsePageSource, type PageSource } from './page-source.js';
import { gitDates, gitModified, pageDate } from './dates.js';
import { getHighlighter } from './plugins/highlight.js';
import { createMarkdown } from './markdown.js';
import { createRenderEnv, pagePathOf } from './plugins/env.js';
import { clip, extractText } from './text.js';
import { breadcrumbs, prevNext, resolveNavigation } from './nav.js';
import { renderPageFragment, renderSidebar } from './page-html.js';
import { buildSearchIndex, type SearchDocument } from './search-index.js';
import { resolveRedirect } from './redirect.js';

export interface BuildDocsSiteOptions {
  readonly root: string;
  /** Markdown folder relative to root; default `docs`. */
  readonly docsDir?: string;
  /** Accepted for symmetry with the server flags; BasePath is applied when serving. */
  readonly basePath?: string | null;
  /** Default public origin recorded in site.json (robots.txt, sitemap, llms.txt, feed). */
  readonly baseUrl?: string | null;
  /**
   * Where page dates come from. `files` (default, `wharf docs serve`/`export`): front matter, else
   * the last git commit, else the file time. `front-matter`: front matter only, else unknown ('');
   * the gateway build's docs check uses it (it reads no git history and writes no pages).
   */
  readonly dates?: 'files' | 'front-matter';
  /** Broken internal links, missing images and bad formulas become errors instead of warnings. */
  readonly strict?: boolean;
}

export interface BuildDocsSiteResult {
  readonly files: OutputFile[];
  readonly diagnostics: Diagnostic[];
}

export function contentHashOf(
  pages: readonly { file: string; text: string }[],
  config: string | null,
  assets: readonly { file: string; bytes: Uint8Array }[] = [],
): string {
  const hash = createHash('sha256');
  for (const p of [...pages].sort((a, b) => (a.file < b.file ? -1 : 1))) hash.update(p.file).update('\0').update(p.text).update('\0');
  for (const a of [...assets].sort((x, y) => (x.file < y.file ? -1 : 1))) hash.update(a.file).update('\0').update(a.bytes).update('\0');
  hash.update('config.json\0').update(config ?? '');
  return hash.digest('hex');
}

/** Lines before the Markdown body (the front matter block), so body lines map to file lines. */
function frontMatterLines(text: string, body: string): number {
  if (!text.endsWith(body)) return 0;
  return (text.slice(0, text.length - body.length).match(/\n/g) ?? []).length;
}

export async function buildDocsSite(options: BuildDocsSiteOptions): Promise<BuildDocsSiteResult> {
  const docsDir = (options.docsDir ?? 'docs').replace(/\\/g, '/').replace(/\/+$/, '');
  const docsAbs = resolve(options.root, docsDir);
  const diagnostics: Diagnostic[] = [];
  if (!existsSync(docsAbs)) {
    diagnostics.push({ severity: 'error', code: 'docs-folder-missing', file: docsDir, line: 0, column: 0, pointer: '', message: `docs folder ${docsDir} does not exist` });
    return { files: [], diagnostics };
  }
  const sources = await discoverDocs(docsAbs);
  const site = parseSiteFile(`${docsDir}/config.json`, sources.config, diagnostics);
  const fileDates = options.dates !== 'front-matter';
  const git = fileDates ? gitDates(docsAbs) : new Map<string, string>();
  const modified = fileDates ? gitModified(docsAbs) : new Set<string>();
  const md = createMarkdown(await getHighlighter());

  const seen = new Map<string, string>();
  const parsed: { file: string; path: string; text: string; source: PageSource }[] = [];
  for (const { file, text } of sources.pages) {
    const path = pagePathOf(file);
    const other = seen.get(path);
    if (other !== undefined) {
      diagnostics.push({ severity: 'error', code: 'docs-duplicate-page', file: `${docsDir}/${file}`, line: 0, column: 0, pointer: '', message: `${file} and ${other} both map to the page path /${path} (paths are case-insensitive and compared in Unicode NFC)` });
      continue;
    }
    seen.set(path, file);
    parsed.push({ file, path, text, source: parsePageSource(`${docsDir}/${file}`, text, diagnostics) });
  }
  parsed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const known = new Set(parsed.map((p) => p.path));
  const knownAssets = new Set(sources.assets.map((a) => docsPathKey(a.file)));

  const rendered = parsed.map((p) => {
    const env = createRenderEnv(p.file, known, knownAssets);
    const tokens = md.parse(p.source.body, env);
    const html = md.renderer.render(tokens, md.options, env);
    const plain = extractText(tokens);
    const bodyLine = frontMatterLines(p.text, p.source.body);
    for (const problem of env.problems) {
      const line = problem.line > 0 ? problem.line + bodyLine : 0;
      diagnostics.push({ severity: options.strict ? 'error' : 'warning', code: problem.code, file: `${docsDir}/${p.file}`, line, column: line > 0 ? 1 : 0, pointer: '', message: problem.message });
    }
    const fm = p.source.frontMatter;
    const redirect = fm.redirect === null ? null : resolveRedirect(fm.redirect, p.file);
    if (fm.redirect !== null && redirect === null) {
      diagnostics.push({ severity: 'error', code: 'docs-redirect', file: `${docsDir}/${p.file}`, line: 1, column: 1, pointer: '', message: `redirect ${fm.redirect} points outside the docs folder` });
    }
    const title = fm.title ?? plain.firstH1 ?? p.path.split('/').pop() ?? p.path;
    return { ...p, env, html, plain, title, redirect, description: fm.description ?? clip(plain.firstParagraph, 200), lastModified: fileDates ? pageDate(p.file, docsAbs, fm.date, git, modified) : (fm.date ?? '') };
  });

  const nav = resolveNavigation(site, rendered.map((r) => ({ path: r.path, title: r.title, order: r.source.frontMatter.order })), `${docsDir}/config.json`, diagnostics);
  const files: OutputFile[] = [];
  const pages: DocsPageMeta[] = [];
  const searchDocs: SearchDocument[] = [];
  for (const r of rendered) {
    const sidebarIndex = nav.sidebarIndexFor(r.path);
    const sidebar = nav.sidebars[sidebarIndex];
    const { prev, next } = sidebar ? prevNext(sidebar, r.path) : { prev: null, next: null };
    const ref = { path: r.path, title: r.title, order: null };
    const fm = r.source.frontMatter;
    files.push({
      path: `${DOCS_SITE_FILES.pagesDir}/${r.path}.html`,
      content: renderPageFragment(site, {
        path: r.path,
        file: r.file,
        html: r.html,
        headings: r.env.headings,
        crumbs: sidebar ? breadcrumbs(sidebar, ref) : [{ title: r.title, path: r.path }],
        prev,
        next,
        lastModified: r.lastModified,
        showToc: fm.toc,
        showPager: fm.pagination,
        layout: fm.layout,
        hero: fm.hero,
        features: fm.features,
        showLastUpdated: site.lastUpdated && fm.lastUpdated,
      }),
    });
    files.push({ path: `${DOCS_SITE_FILES.rawDir}/${r.path}.md`, content: r.text });
    pages.push({
      path: r.path,
      file: r.file,
      title: r.title,
      description: r.description,
      metaDescription: fm.description,
      keywords: fm.keywords,
      lastModified: r.lastModified,
      layout: fm.layout,
      redirect: r.redirect,
      uses: { math: r.env.usesMath, mermaid: r.env.usesMermaid },
      sourceHash: createHash('sha256').update(r.text).digest('hex'),
      sidebar: sidebarIndex,
    });
    if (r.redirect === null)
      searchDocs.push({
      path: r.path,
      title: r.title,
      description: r.description,
      keywords: fm.keywords.join(' '),
      headings: r.env.headings.filter((h) => h.level > 1).map((h) => h.text).join('\n'),
      body: r.plain.body,
    });
  }
  for (const asset of sources.assets) files.push({ path: `${DOCS_SITE_FILES.assetsDir}/${asset.file}`, content: asset.bytes });
  nav.sidebars.forEach((s, i) => files.push({ path: `${DOCS_SITE_FILES.sidebarsDir}/${i}.html`, content: renderSidebar(s.nodes) }));

  const footerHtml = site.footer ? md.render(site.footer, createRenderEnv('config.json', known)) : '';
  const data: DocsSiteData = {
    schemaVersion: DOCS_SITE_SCHEMA_VERSION,
    contentHash: contentHashOf(sources.pages, sources.config, sources.assets),
    baseUrl: options.baseUrl ?? site.baseUrl,
    config: {
      title: site.title,
      titleTemplate: site.titleTemplate,
      description: site.description,
      lang: site.lang,
      head: site.head,
      brand: site.brand,
      brandImage: site.brandImage,
      footerHtml,
      favicon: site.favicon,
      lastUpdated: site.lastUpdated,
      pageControls: { downloadMarkdown: site.pageControls.downloadMarkdown, subscribeRss: site.pageControls.subscribeRss },
      topNav: site.topNav,
      socialLinks: site.socialLinks,
    },
    pages,
    sidebarCount: nav.sidebars.length,
    assets: sources.assets.map((a) => a.file),
  };
  files.push({ path: DOCS_SITE_FILES.site, content: JSON.stringify(data, null, 2) + '\n' });
  files.push({ path: DOCS_SITE_FILES.searchIndex, content: buildSearchIndex(searchDocs) + '\n' });
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, diagnostics: sortDiagnostics(diagnostics) };
}
