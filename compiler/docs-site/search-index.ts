/**
 * The search index file: an inverted index with each term's weight per page precomputed
 * (runtime/contract/docs-search.js, the same module the server and the export's browser use).
 */
import { DOCS_SEARCH_WEIGHTS } from '../../runtime/contract/docs-site.js';
import { buildSearchIndex as buildIndex, type SearchSourceDocument } from '../../runtime/contract/docs-search.js';

export type SearchDocument = SearchSourceDocument;

export function buildSearchIndex(documents: readonly SearchDocument[]): string {
  return JSON.stringify(buildIndex(documents, DOCS_SEARCH_WEIGHTS));
}
