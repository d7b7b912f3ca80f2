/**
 * One Markdown file: front matter (gray-matter) split from the body, the keys we understand
 * normalized. Front matter keys: title, description, keywords (list or comma string), date,
 * updated, layout (`home` leaves the page out of the feed), toc (false hides the outline),
 * lastUpdated (false hides the date), pagination (false hides prev/next), order (position in
 * the automatic sidebar), redirect (the page answers 307 to this target), and for `layout: home`
 * hero `{name, text, tagline, actions: [{text, link, theme}]}` and features `[{title, details, icon}]`.
 */
import matter from 'gray-matter';
import type { Diagnostic } from '../diagnostics.js';
import { checkedLink } from './link-scheme.js';

export interface FrontMatter {
  readonly title: string | null;
  readonly description: string | null;
  readonly keywords: readonly string[];
  /** ISO date-time of `updated`, else `date`, else null. */
  readonly date: string | null;
  readonly layout: string;
  readonly toc: boolean;
  readonly lastUpdated: boolean;
  readonly pagination: boolean;
  readonly order: number | null;
  /** Target as written (`./other.md`, `/guide/x`, `https://…`), null when none. */
  readonly redirect: string | null;
  readonly hero: Hero | null;
  readonly features: readonly Feature[];
}

export interface HeroAction {
  readonly text: string;
  readonly link: string;
  readonly theme: 'brand' | 'alt';
}

export interface Hero {
  readonly name: string | null;
  readonly text: string | null;
  readonly tagline: string | null;
  readonly actions: readonly HeroAction[];
}

export interface Feature {
  readonly title: string;
  readonly details: string | null;
  readonly icon: string | null;
}

export interface PageSource {
  readonly frontMatter: FrontMatter;
  readonly body: string;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null;
}

const record = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** A front matter link as written; null when absent, or refused (a docs-unsafe-link error). */
type FrontMatterLink = (value: unknown, pointer: string) => string | null;

function heroOf(v: unknown, link: FrontMatterLink): Hero | null {
  const h = record(v);
  if (!h) return null;
  const actions = Array.isArray(h['actions']) ? h['actions'].map(record) : [];
  return {
    name: str(h['name']),
    text: str(h['text']),
    tagline: str(h['tagline']),
    actions: actions.flatMap((a, i) => {
      const text = str(a?.['text']);
      const url = link(a?.['link'], `/hero/actions/${i}/link`);
      return text && url ? [{ text, link: url, theme: a?.['theme'] === 'alt' ? ('alt' as const) : ('brand' as const) }] : [];
    }),
  };
}

function featuresOf(v: unknown): Feature[] {
  if (!Array.isArray(v)) return [];
  return v.map(record).flatMap((f) => {
    const title = str(f?.['title']);
    return title ? [{ title, details: str(f?.['details']), icon: str(f?.['icon']) }] : [];
  });
}

function isoDate(v: unknown): string | null {
  if (v instanceof Date && !Number.isNaN(v.getTime())) return v.toISOString();
  if (typeof v === 'string' && v.trim() !== '') {
    const d = new Date(v);
    if (!Number.isNaN(d.getTime())) return d.toISOString();
  }
  return null;
}

export function parsePageSource(file: string, text: string, diagnostics: Diagnostic[]): PageSource {
  let data: Record<string, unknown> = {};
  let body = text;
  try {
    const parsed = matter(text, {});
    data = (parsed.data ?? {}) as Record<string, unknown>;
    body = parsed.content;
  } catch (error) {
    diagnostics.push({
      severity: 'error',
      code: 'docs-front-matter',
      file,
      line: 1,
      column: 1,
      pointer: '',
      message: `front matter is not valid YAML: ${(error as Error).message.split('\n')[0]}`,
      hint: 'Front matter is a YAML block between two `---` lines at the top of the file.',
    });
  }
  const rawKeywords = data['keywords'];
  const keywords = Array.isArray(rawKeywords)
    ? rawKeywords.map(str).filter((k): k is string => k !== null)
    : (str(rawKeywords)?.split(',').map((k) => k.trim()).filter(Boolean) ?? []);
  const order = data['order'];
  const link: FrontMatterLink = (value, pointer) => {
    const url = str(value);
    return url === null ? null : checkedLink(url, file, pointer, 1, diagnostics);
  };
  return {
    frontMatter: {
      title: str(data['title']),
      description: str(data['description']),
      keywords,
      date: isoDate(data['updated']) ?? isoDate(data['date']),
      layout: str(data['layout']) ?? 'doc',
      toc: data['toc'] !== false,
      lastUpdated: data['lastUpdated'] !== false,
      pagination: data['pagination'] !== false,
      order: typeof order === 'number' ? order : null,
      redirect: link(data['redirect'], '/redirect'),
      hero: heroOf(data['hero'], link),
      features: featuresOf(data['features']),
    },
    body,
  };
}
