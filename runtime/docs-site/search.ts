/**
 * `/api/search?q=&limit=`: the shared engine (../contract/docs-search.js) over the loaded
 * index. Ranked by summed weighted score (Title 10, Description 5, Keywords 4, Heading 3,
 * Body 1), then path; each result `{path, title, description, excerpt}` with the matched terms
 * in `<mark>`; `limit` default 20, maximum 100; the count before the limit goes in a header.
 */
import { DEFAULT_LIMIT, MAX_LIMIT, type SearchAnswer } from '../contract/docs-search.js';
import type { LoadedDocsSite } from './site.js';

export type { SearchResult } from '../contract/docs-search.js';
export const SEARCH_TOTAL_HEADER = 'X-Total-Count';

/** The `limit` parameter: absent -> 20; an integer 1..100 -> itself, above 100 -> 100; else null (400). */
export function parseLimit(raw: unknown): number | null {
  if (raw === undefined || raw === '') return DEFAULT_LIMIT;
  if (typeof raw !== 'string' || !/^\d{1,6}$/.test(raw)) return null;
  const n = Number(raw);
  return n < 1 ? null : Math.min(n, MAX_LIMIT);
}

export function searchSite(site: LoadedDocsSite, q: unknown, limit: number = DEFAULT_LIMIT): SearchAnswer {
  return site.search.search(q, limit);
}
