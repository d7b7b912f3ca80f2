/** Types of docs-search.js (a plain ES module so the browser can load the same file). */
export declare const SEARCH_INDEX_VERSION: 2;
export declare const MAX_QUERY_LENGTH: number;
export declare const MAX_QUERY_TERMS: number;
export declare const DEFAULT_LIMIT: number;
export declare const MAX_LIMIT: number;
/** A page path as it goes into a URL: `%`, `#`, `?`, `\\` and white space percent-encoded. */
export declare function pageUrlPath(path: string): string;

export interface SearchSourceDocument {
  readonly path: string;
  readonly title: string;
  readonly description: string;
  readonly keywords: string;
  readonly headings: string;
  readonly body: string;
}

export interface SearchIndexData {
  readonly v: 2;
  readonly docs: readonly { readonly path: string; readonly title: string; readonly description: string; readonly body: string }[];
  /** term -> [docId, score, docId, score, ...] */
  readonly terms: Readonly<Record<string, readonly number[]>>;
}

export interface SearchResult {
  /** Page URL path without BasePath, e.g. `/guide/intro`. */
  readonly path: string;
  readonly title: string;
  readonly description: string;
  /** HTML: escaped text with every matched term in `<mark>`. */
  readonly excerpt: string;
}

export interface SearchAnswer {
  /** Pages that matched, before the limit. */
  readonly total: number;
  readonly results: readonly SearchResult[];
}

export interface SearchEngine {
  search(q: unknown, limit?: number): SearchAnswer;
  /** Builds the close-spelling (trigram) index now instead of on the first fallback query. */
  warm(): void;
  readonly size: number;
}

export declare function tokenize(text: string): string[];
export declare function queryTerms(q: unknown): string[];
export declare function buildSearchIndex(documents: readonly SearchSourceDocument[], weights: Readonly<Record<string, number>>): SearchIndexData;
export declare function termsPattern(terms: Iterable<string>): RegExp | null;
export declare function markedExcerpt(body: string, pattern: RegExp | null, fallback: string): string;
export declare function createSearchEngine(index: SearchIndexData): SearchEngine;
