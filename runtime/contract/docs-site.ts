/**
 * generated/docs/: the precompiled documentation site the compiler hands the docs server.
 * Layout: `site.json` (DocsSiteData), `pages/<path>.html` (page body fragment),
 * `raw/<path>.md` (Markdown source), `sidebars/<n>.html` (one per distinct sidebar),
 * `assets/<file>` (images and PDFs of the docs folder, as they are),
 * `search-index.json` (inverted index with precomputed term weights, see docs-search.js).
 * Internal links inside fragments are root-relative (`/guide/intro`); the server adds BasePath.
 */
export const DOCS_SITE_SCHEMA_VERSION = 2;

export const DOCS_SITE_FILES = {
  site: 'site.json',
  searchIndex: 'search-index.json',
  pagesDir: 'pages',
  rawDir: 'raw',
  sidebarsDir: 'sidebars',
  assetsDir: 'assets',
} as const;

/**
 * The form in which page paths and asset paths are compared: Unicode NFC, lower case. `café.md`
 * saved as NFC (`e` + U+0301 composed, as Windows and Linux editors write it) and as NFD (as
 * macOS file systems and some git checkouts hand it over) is the one page `/café`; a request in
 * either spelling, in any case, finds it.
 */
export function docsPathKey(path: string): string {
  return path.normalize('NFC').toLowerCase();
}

/** Files besides Markdown that a docs folder may hold (served at their path, case-insensitive). */
export const DOCS_ASSET_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
};

/** Fields indexed for search with their weights (spec 3A rule 3). */
export const DOCS_SEARCH_WEIGHTS = { title: 10, description: 5, keywords: 4, headings: 3, body: 1 } as const;

export interface DocsHeadTag {
  readonly tag: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly content: string | null;
}

export interface DocsTopNavItem {
  readonly text: string;
  readonly link?: string;
  readonly items?: readonly DocsTopNavItem[];
}

export interface DocsSocialLink {
  readonly icon: string;
  readonly url: string;
  readonly title?: string;
}

/** The site file (docs/config.json) after validation, defaults filled in. */
export interface DocsSiteConfig {
  readonly title: string | null;
  readonly titleTemplate: string;
  readonly description: string | null;
  readonly lang: string;
  readonly head: readonly DocsHeadTag[];
  readonly brand: string | null;
  readonly brandImage: string | null;
  /** Rendered footer Markdown (HTML), '' when none. */
  readonly footerHtml: string;
  readonly favicon: string | null;
  readonly lastUpdated: boolean;
  readonly pageControls: {
    readonly downloadMarkdown: boolean;
    readonly subscribeRss: boolean;
  };
  readonly topNav: readonly DocsTopNavItem[];
  readonly socialLinks: readonly DocsSocialLink[];
}

export interface DocsHeading {
  readonly level: number;
  readonly id: string;
  readonly text: string;
}

export interface DocsPageMeta {
  /** Lower-case URL path without leading slash or `.md`, e.g. `guide/intro`. */
  readonly path: string;
  /** Source file relative to the docs folder, e.g. `guide/intro.md`. */
  readonly file: string;
  readonly title: string;
  /** Front matter `description`, else the first paragraph (clipped): search results, feed, llms.txt. */
  readonly description: string;
  /**
   * The page's `<meta name="description">`: front matter `description`; null = the site file's
   * `description` (spec 3A: the site file's is the fallback, front matter wins).
   */
  readonly metaDescription: string | null;
  readonly keywords: readonly string[];
  /** ISO date-time of the last change (front matter updated/date, else git, else mtime); '' = unknown. */
  readonly lastModified: string;
  /** `home` pages are left out of the feed. */
  readonly layout: string;
  /**
   * Front matter `redirect`, resolved: root-relative (`/guide/new`, BasePath added when served)
   * or absolute. Such a page answers 307 and is left out of the sitemap, feed, llms.txt,
   * /api/pages and search. Null when none.
   */
  readonly redirect: string | null;
  /** The page has math (links the KaTeX stylesheet) or a Mermaid diagram (loads /_wharf/mermaid.js). */
  readonly uses: { readonly math: boolean; readonly mermaid: boolean };
  /** SHA-256 (hex) of the Markdown source. */
  readonly sourceHash: string;
  /** Index of the page's sidebar (`sidebars/<n>.html`). */
  readonly sidebar: number;
}

export interface DocsSiteData {
  readonly schemaVersion: number;
  /** SHA-256 (hex) over sorted (relative path + content) of every Markdown file and config.json. */
  readonly contentHash: string;
  /** Default public origin (from --base-url at build time), null when unknown. */
  readonly baseUrl: string | null;
  readonly config: DocsSiteConfig;
  /** Sorted by path. */
  readonly pages: readonly DocsPageMeta[];
  /** Number of files in `sidebars/`. */
  readonly sidebarCount: number;
  /** Asset files relative to the docs folder (original case), sorted; stored under `assets/`. */
  readonly assets: readonly string[];
}
