import { DOCS_ASSET_TYPES, docsPathKey, type DocsHeading } from '../../../runtime/contract/docs-site.js';

/** Per-document render environment shared by the Markdown plugins. */
export type DocsRenderEnv = {
  /** Source file relative to the docs folder, posix separators (e.g. `guide/intro.md`). */
  readonly file: string;
  /** Filled by the headings plugin. */
  headings: DocsHeading[];
  /** Problems found while rendering (broken links, missing images, bad math), 1-based body lines. */
  problems: RenderProblem[];
  /** Lower-case page paths that exist; links to other pages are checked against it. */
  readonly knownPages: ReadonlySet<string>;
  /** Lower-case asset paths (`img/logo.png`) that exist; null = do not check images. */
  readonly knownAssets: ReadonlySet<string> | null;
  /** Set by the math plugin when the page has a formula (the page then links the KaTeX stylesheet). */
  usesMath: boolean;
  /** Set by the diagrams plugin when the page has a Mermaid block (the page then loads Mermaid). */
  usesMermaid: boolean;
};

export interface RenderProblem {
  readonly code: 'docs-broken-link' | 'docs-missing-image' | 'docs-math';
  /** 1-based line in the Markdown body (after the front matter); 0 when unknown. */
  readonly line: number;
  readonly message: string;
}

export function createRenderEnv(file: string, knownPages: ReadonlySet<string> = new Set(), knownAssets: ReadonlySet<string> | null = null): DocsRenderEnv {
  return { file, headings: [], problems: [], knownPages, knownAssets, usesMath: false, usesMermaid: false };
}

/** `guide/Intro.md` -> `guide/intro` (the page's URL path; Unicode NFC, see docsPathKey). */
export function pagePathOf(file: string): string {
  return docsPathKey(file.replace(/\.md$/i, ''));
}

/** Images and PDFs that the docs folder may hold next to its pages. */
export function isAssetFile(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && Object.hasOwn(DOCS_ASSET_TYPES, name.slice(dot + 1).toLowerCase());
}
