import { DOCS_ASSET_TYPES, type DocsHeading } from '../../../runtime/contract/docs-site.js';

/** Per-document render environment shared by the Markdown plugins. */
export type DocsRenderEnv = {
  /** Source file relative to the docs folder, posix separators (e.g. `guide/intro.md`). */
  readonly file: string;
  /** Filled by the headings plugin. */
  headings: DocsHeading[];
  /** Relative `.md` links that did not resolve to a page, filled by the links plugin. */
  brokenLinks: string[];
  /** Lower-case page paths that exist; links to other pages are checked against it. */
  readonly knownPages: ReadonlySet<string>;
};

export function createRenderEnv(file: string, knownPages: ReadonlySet<string> = new Set()): DocsRenderEnv {
  return { file, headings: [], brokenLinks: [], knownPages };
}

/** `guide/Intro.md` -> `guide/intro` (the page's URL path). */
export function pagePathOf(file: string): string {
  return file.replace(/\.md$/i, '').toLowerCase();
}

/** Images and PDFs that the docs folder may hold next to its pages. */
export function isAssetFile(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && Object.hasOwn(DOCS_ASSET_TYPES, name.slice(dot + 1).toLowerCase());
}
