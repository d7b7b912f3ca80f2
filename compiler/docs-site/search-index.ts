/**
 * The search index: MiniSearch over title, description, front-matter keywords, headings and
 * body text. Weights are applied at query time (DOCS_SEARCH_WEIGHTS) by the server and by the
 * static export's client script; the serialized index is the same file for both.
 */
import MiniSearch from 'minisearch';

export interface SearchDocument {
  readonly id: number;
  readonly path: string;
  readonly title: string;
  readonly description: string;
  readonly keywords: string;
  readonly headings: string;
  readonly body: string;
}

export const SEARCH_FIELDS = ['title', 'description', 'keywords', 'headings', 'body'] as const;
export const SEARCH_STORE_FIELDS = ['path', 'title', 'description', 'body'] as const;

export function buildSearchIndex(documents: readonly SearchDocument[]): string {
  const index = new MiniSearch<SearchDocument>({ fields: [...SEARCH_FIELDS], storeFields: [...SEARCH_STORE_FIELDS] });
  index.addAll([...documents]);
  return JSON.stringify(index);
}
