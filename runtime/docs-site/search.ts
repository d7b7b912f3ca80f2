/**
 * `/api/search`: weighted MiniSearch query (Title 10, Description 5, Keywords 4, Heading 3,
 * Body 1; prefix and fuzzy matches count less), ranked by score then path, each result
 * `{path, title, description, excerpt}`. The static export's client runs the same query.
 */
import { DOCS_SEARCH_WEIGHTS } from '../contract/docs-site.js';
import type { LoadedDocsSite } from './site.js';

export interface SearchResult {
  /** Page URL path without BasePath, e.g. `/guide/intro`. */
  readonly path: string;
  readonly title: string;
  readonly description: string;
  readonly excerpt: string;
}

export const MAX_QUERY_LENGTH = 128;
export const MAX_QUERY_TERMS = 8;

export function normalizeQuery(q: unknown): string {
  if (typeof q !== 'string') return '';
  return q.trim().slice(0, MAX_QUERY_LENGTH).split(/\s+/).slice(0, MAX_QUERY_TERMS).join(' ');
}

/** A case-insensitive pattern matching any of the terms (null when there are none). */
export function termsPattern(terms: Iterable<string>): RegExp | null {
  const list = [...new Set(terms)].filter(Boolean).sort((a, b) => b.length - a.length);
  return list.length ? new RegExp(list.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i') : null;
}

/** ~200 characters of body around the first occurrence of a matched term. */
export function excerptOf(body: string, terms: readonly string[] | RegExp | null, fallback: string): string {
  const pattern = Array.isArray(terms) ? termsPattern(terms) : (terms as RegExp | null);
  const at = pattern ? body.search(pattern) : -1;
  const flat = (s: string): string => s.replace(/\s+/g, ' ').trim();
  if (at < 0) return flat(fallback || body.slice(0, 200));
  let start = Math.max(0, at - 60);
  let end = Math.min(body.length, at + 140);
  if (start > 0) {
    const space = body.indexOf(' ', start);
    if (space >= 0 && space < at) start = space + 1;
  }
  if (end < body.length) {
    const space = body.lastIndexOf(' ', end);
    if (space > at) end = space;
  }
  return (start > 0 ? '…' : '') + flat(body.slice(start, end)) + (end < body.length ? '…' : '');
}

export function searchSite(site: LoadedDocsSite, q: unknown): SearchResult[] {
  const query = normalizeQuery(q);
  if (query.length < 2) return [];
  const hits = site.search.search(query, { boost: { ...DOCS_SEARCH_WEIGHTS }, prefix: true, fuzzy: 0.2, combineWith: 'OR' });
  const pattern = termsPattern(hits.flatMap((h) => h.terms));
  return hits
    .sort((a, b) => b.score - a.score || (a['path'] < b['path'] ? -1 : 1))
    .map((hit) => {
      const body = String(hit['body'] ?? '');
      const description = String(hit['description'] ?? '');
      return {
        path: `/${String(hit['path'])}`,
        title: String(hit['title'] ?? ''),
        description,
        excerpt: excerptOf(body, pattern, description),
      };
    });
}
