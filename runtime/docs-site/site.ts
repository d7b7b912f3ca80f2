/**
 * The loaded site: an in-memory build result (or a folder holding the same files) read once, validated against
 * the schema version, indexed by page path, with the search index deserialized.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSearchEngine, type SearchEngine, type SearchIndexData } from '../contract/docs-search.js';
import {
  DOCS_ASSET_TYPES,
  DOCS_SITE_FILES,
  docsPathKey,
  DOCS_SITE_SCHEMA_VERSION,
  type DocsPageMeta,
  type DocsSiteData,
} from '../contract/docs-site.js';

export interface LoadedPage {
  readonly meta: DocsPageMeta;
  readonly fragment: string;
  readonly raw: string;
}

export interface LoadedAsset {
  /** Path relative to the site root, original case (`img/Logo.png`). */
  readonly path: string;
  readonly contentType: string;
  readonly body: Buffer;
}

export interface LoadedDocsSite {
  readonly data: DocsSiteData;
  /** Keyed by lower-case path. */
  readonly assets: ReadonlyMap<string, LoadedAsset>;
  readonly pages: ReadonlyMap<string, LoadedPage>;
  readonly sidebars: readonly string[];
  readonly searchIndexJson: string;
  /** Built once per loaded content version. */
  readonly search: SearchEngine;
}

/** A file of the build result (structurally the compiler's OutputFile). */
export interface DocsFile {
  readonly path: string;
  readonly content: string | Uint8Array;
}

/** Load from a directory holding the site files or from the files of an in-memory build. */
export async function loadDocsSite(source: string | readonly DocsFile[]): Promise<LoadedDocsSite> {
  let readBytes: (path: string) => Promise<Buffer>;
  if (typeof source === 'string') {
    readBytes = (path) => readFile(join(source, path));
  } else {
    const byPath = new Map(source.map((f) => [f.path, f.content]));
    readBytes = async (path) => {
      const content = byPath.get(path);
      if (content === undefined) throw new Error(`docs site: ${path} is missing from the build result`);
      return typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    };
  }
  const read = async (path: string): Promise<string> => (await readBytes(path)).toString('utf8');
  const data = JSON.parse(await read(DOCS_SITE_FILES.site)) as DocsSiteData;
  if (data.schemaVersion !== DOCS_SITE_SCHEMA_VERSION) {
    throw new Error(`docs site: schema version ${String(data.schemaVersion)} is not ${DOCS_SITE_SCHEMA_VERSION}; rebuild with this version of wharf`);
  }
  const pages = new Map<string, LoadedPage>();
  await Promise.all(
    data.pages.map(async (meta) => {
      const [fragment, raw] = await Promise.all([
        read(`${DOCS_SITE_FILES.pagesDir}/${meta.path}.html`),
        read(`${DOCS_SITE_FILES.rawDir}/${meta.path}.md`),
      ]);
      pages.set(meta.path, { meta, fragment, raw });
    }),
  );
  const sidebars = await Promise.all(Array.from({ length: data.sidebarCount }, (_, i) => read(`${DOCS_SITE_FILES.sidebarsDir}/${i}.html`)));
  const searchIndexJson = (await read(DOCS_SITE_FILES.searchIndex)).trim();
  const search = createSearchEngine(JSON.parse(searchIndexJson) as SearchIndexData);
  search.warm();
  const assets = new Map<string, LoadedAsset>();
  for (const path of data.assets ?? []) {
    const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
    const body = await readBytes(`${DOCS_SITE_FILES.assetsDir}/${path}`);
    assets.set(docsPathKey(path), { path, contentType: DOCS_ASSET_TYPES[ext] ?? 'application/octet-stream', body });
  }
  return { data, assets, pages, sidebars, searchIndexJson, search };
}
