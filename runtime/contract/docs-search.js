/**
 * Docs search engine, one plain ES module for three users: the compiler builds the index with
 * it, the docs server answers /api/search with it, and a static export's browser imports it from
 * /_wharf/search.js, so all three rank the same way. Types: docs-search.d.ts beside it.
 *
 * Index (search-index.json): `{v: 2, docs: [{path,title,description,body}], terms: {term:
 * [docId, score, docId, score, ...]}}`, docs sorted by path. A term's score in a page is the sum
 * of the weights of the fields holding it (Title 10, Description 5, Keywords 4, Heading 3,
 * Body 1), computed once at build time. A query sums its terms' scores per page; a term with no
 * exact hit falls back to at most 3 close spellings (prefix extensions and trigram-similar
 * terms, Dice similarity >= 0.5) at half score. Ties go to the page path, ascending.
 */

export const SEARCH_INDEX_VERSION = 2;
export const MAX_QUERY_LENGTH = 128;
export const MAX_QUERY_TERMS = 8;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
const FALLBACK_TERMS = 3;
const FALLBACK_FACTOR = 0.5;
const MIN_SIMILARITY = 0.5;
const EXCERPT_BEFORE = 60;
const EXCERPT_AFTER = 140;

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A page path as it goes into a URL: `%`, `#`, `?`, `\` and white space percent-encoded (a file
 * `c#.md` is the page `/c%23`, not `/c` with a fragment); everything else as it is.
 */
export function pageUrlPath(path) {
  return String(path).replace(/[%#?\\\s]/g, (c) => encodeURIComponent(c));
}

/** Lower-cased words (letters and digits) of a text. */
export function tokenize(text) {
  return String(text).toLowerCase().match(WORD) ?? [];
}

/** The query's distinct terms: at most 128 characters, at most 8 terms. */
export function queryTerms(q) {
  if (typeof q !== 'string') return [];
  const text = q.trim().slice(0, MAX_QUERY_LENGTH);
  if (text.length < 2) return [];
  return [...new Set(tokenize(text))].slice(0, MAX_QUERY_TERMS);
}

/**
 * documents: [{path, title, description, keywords, headings, body}] (any order);
 * weights: {title, description, keywords, headings, body}.
 */
export function buildSearchIndex(documents, weights) {
  const sorted = [...documents].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const postings = new Map();
  sorted.forEach((doc, id) => {
    const scores = new Map();
    for (const field of Object.keys(weights)) {
      for (const term of new Set(tokenize(doc[field] ?? ''))) scores.set(term, (scores.get(term) ?? 0) + weights[field]);
    }
    for (const [term, score] of scores) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push(id, score);
    }
  });
  const terms = {};
  for (const term of [...postings.keys()].sort()) terms[term] = postings.get(term);
  return {
    v: SEARCH_INDEX_VERSION,
    docs: sorted.map((d) => ({ path: d.path, title: d.title, description: d.description, body: d.body })),
    terms,
  };
}

function trigrams(term) {
  const padded = ` ${term} `;
  const out = new Set();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A whole-word, case-insensitive pattern for the terms (null when none). */
export function termsPattern(terms) {
  const list = [...new Set(terms)].filter(Boolean).sort((a, b) => b.length - a.length);
  return list.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${list.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu') : null;
}

/**
 * ~200 characters of `body` around the first hit, HTML-escaped, every hit wrapped in <mark>.
 * Without a hit in the body: the fallback (description), else the start of the body.
 */
export function markedExcerpt(body, pattern, fallback) {
  const flat = (s) => s.replace(/\s+/g, ' ').trim();
  let text;
  let at = -1;
  if (pattern) {
    pattern.lastIndex = 0;
    const hit = pattern.exec(body);
    at = hit ? hit.index : -1;
  }
  if (at < 0) {
    text = flat(fallback || body.slice(0, EXCERPT_BEFORE + EXCERPT_AFTER));
  } else {
    let start = Math.max(0, at - EXCERPT_BEFORE);
    let end = Math.min(body.length, at + EXCERPT_AFTER);
    if (start > 0) {
      const space = body.indexOf(' ', start);
      if (space >= 0 && space < at) start = space + 1;
    }
    if (end < body.length) {
      const space = body.lastIndexOf(' ', end);
      if (space > at) end = space;
    }
    text = (start > 0 ? '…' : '') + flat(body.slice(start, end)) + (end < body.length ? '…' : '');
  }
  if (!pattern) return escapeHtml(text);
  let out = '';
  let last = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    out += escapeHtml(text.slice(last, m.index)) + '<mark>' + escapeHtml(m[0]) + '</mark>';
    last = m.index + m[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

/** Loads an index (the parsed search-index.json) once; `search` then answers from memory. */
export function createSearchEngine(index) {
  if (!index || index.v !== SEARCH_INDEX_VERSION) throw new Error(`search index version ${index && index.v} is not ${SEARCH_INDEX_VERSION}`);
  const docs = index.docs;
  const postings = new Map(Object.entries(index.terms));
  const vocabulary = [...postings.keys()].sort();
  let byTrigram = null;
  const trigramIndex = () => {
    if (byTrigram) return byTrigram;
    byTrigram = new Map();
    for (const term of vocabulary) {
      for (const t of trigrams(term)) {
        let list = byTrigram.get(t);
        if (!list) byTrigram.set(t, (list = []));
        list.push(term);
      }
    }
    return byTrigram;
  };

  /** Up to 3 known terms close to `term`, best first: [[term, similarity]]. */
  function closeTerms(term) {
    if (term.length < 3) return [];
    const found = new Map();
    let lo = 0;
    let hi = vocabulary.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (vocabulary[mid] < term) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo, n = 0; i < vocabulary.length && n < 50 && vocabulary[i].startsWith(term); i++, n++) {
      found.set(vocabulary[i], MIN_SIMILARITY + (MIN_SIMILARITY * term.length) / vocabulary[i].length);
    }
    const own = trigrams(term);
    const shared = new Map();
    const grams = trigramIndex();
    for (const t of own) for (const other of grams.get(t) ?? []) shared.set(other, (shared.get(other) ?? 0) + 1);
    for (const [other, count] of shared) {
      const similarity = (2 * count) / (own.size + other.length);
      if (similarity >= MIN_SIMILARITY && similarity > (found.get(other) ?? 0)) found.set(other, similarity);
    }
    return [...found].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, FALLBACK_TERMS);
  }

  /** {total, results: [{path, title, description, excerpt}]}; path with a leading slash. */
  function search(q, limit = DEFAULT_LIMIT) {
    const terms = queryTerms(q);
    if (terms.length === 0) return { total: 0, results: [] };
    const scores = new Float64Array(docs.length);
    const touched = [];
    const matched = [];
    for (const term of terms) {
      const exact = postings.get(term);
      if (exact) {
        matched.push(term);
        for (let i = 0; i < exact.length; i += 2) {
          if (scores[exact[i]] === 0) touched.push(exact[i]);
          scores[exact[i]] += exact[i + 1];
        }
        continue;
      }
      const best = new Map();
      for (const [other] of closeTerms(term)) {
        matched.push(other);
        const list = postings.get(other);
        for (let i = 0; i < list.length; i += 2) best.set(list[i], Math.max(best.get(list[i]) ?? 0, list[i + 1] * FALLBACK_FACTOR));
      }
      for (const [id, score] of best) {
        if (scores[id] === 0) touched.push(id);
        scores[id] += score;
      }
    }
    touched.sort((a, b) => scores[b] - scores[a] || a - b);
    const pattern = termsPattern(matched);
    const top = touched.slice(0, Math.max(0, Math.min(limit, MAX_LIMIT)));
    return {
      total: touched.length,
      results: top.map((id) => {
        const d = docs[id];
        return { path: `/${pageUrlPath(d.path)}`, title: d.title, description: d.description, excerpt: markedExcerpt(d.body, pattern, d.description) };
      }),
    };
  }

  /** Build the close-spelling index now (the server does at load, so no query pays for it). */
  function warm() {
    trigramIndex();
  }

  return { search, warm, size: docs.length };
}
