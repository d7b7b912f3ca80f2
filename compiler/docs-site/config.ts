/**
 * The site file `docs/config.json`: parsed, checked field by field (every mistake one
 * diagnostic, wrong-typed fields fall back to their default) and normalized.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { DocsHeadTag, DocsSocialLink, DocsTopNavItem } from '../../runtime/contract/docs-site.js';
import { checkedLink } from './link-scheme.js';

export interface NavEntryInput {
  readonly title: string;
  readonly path?: string;
  readonly items?: readonly NavEntryInput[];
  readonly collapsed?: boolean;
}

export interface SiteFile {
  readonly title: string | null;
  readonly titleTemplate: string;
  readonly description: string | null;
  /** Public origin for absolute URLs (feed, sitemap, robots, llms) when no --base-url is given. */
  readonly baseUrl: string | null;
  readonly lang: string;
  readonly head: readonly DocsHeadTag[];
  readonly brand: string | null;
  readonly brandImage: string | null;
  readonly footer: string | null;
  readonly favicon: string | null;
  readonly lastUpdated: boolean;
  readonly editLink: { readonly pattern: string; readonly text: string } | null;
  readonly pageControls: {
    readonly downloadMarkdown: boolean;
    readonly subscribeRss: boolean;
    readonly editLink: { readonly label: string; readonly icon: string | null } | null;
  };
  readonly topNav: readonly DocsTopNavItem[];
  readonly sidebar: ReadonlyMap<string, readonly NavEntryInput[]> | null;
  readonly nav: readonly NavEntryInput[] | null;
  readonly socialLinks: readonly DocsSocialLink[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseSiteFile(file: string, text: string | null, diagnostics: Diagnostic[]): SiteFile {
  const problem = (pointer: string, message: string, hint?: string): void => {
    diagnostics.push({ severity: 'error', code: 'docs-site-file', file, line: 0, column: 0, pointer, message, ...(hint ? { hint } : {}) });
  };
  let root: Obj = {};
  if (text !== null) {
    try {
      const value: unknown = JSON.parse(text);
      if (isObj(value)) root = value;
      else problem('', 'the site file must be a JSON object');
    } catch (error) {
      problem('', `not valid JSON: ${(error as Error).message}`);
    }
  }
  /** A link the site writes as it is: null (and a docs-unsafe-link error) for a script or file URL. */
  const link = (url: string, pointer: string): string | null => checkedLink(url, file, pointer, 0, diagnostics);
  const string = (o: Obj, key: string, at: string): string | null => {
    const v = o[key];
    if (v === undefined || v === null) return null;
    if (typeof v === 'string') return v;
    problem(`${at}/${key}`, `\`${key}\` must be a string`);
    return null;
  };
  const bool = (o: Obj, key: string, at: string, fallback: boolean): boolean => {
    const v = o[key];
    if (v === undefined || v === null) return fallback;
    if (typeof v === 'boolean') return v;
    problem(`${at}/${key}`, `\`${key}\` must be true or false`);
    return fallback;
  };
  const array = (o: Obj, key: string, at: string): unknown[] => {
    const v = o[key];
    if (v === undefined || v === null) return [];
    if (Array.isArray(v)) return v;
    problem(`${at}/${key}`, `\`${key}\` must be an array`);
    return [];
  };

  const head: DocsHeadTag[] = [];
  array(root, 'head', '').forEach((t, i) => {
    const at = `/head/${i}`;
    if (!isObj(t) || typeof t['tag'] !== 'string' || !/^[a-z][a-z0-9-]*$/i.test(t['tag'])) {
      problem(at, 'a head tag needs `tag` (an element name)');
      return;
    }
    const attrs: Record<string, string> = {};
    if (isObj(t['attrs'])) {
      for (const [k, v] of Object.entries(t['attrs'])) {
        if (!/^[a-z_:][a-z0-9_:.-]*$/i.test(k)) problem(`${at}/attrs/${k}`, `\`${k}\` is not an attribute name`);
        else attrs[k] = String(v);
      }
    }
    head.push({ tag: t['tag'].toLowerCase(), attrs, content: string(t, 'content', at) });
  });

  const topNavItem = (v: unknown, at: string): DocsTopNavItem | null => {
    if (!isObj(v) || typeof v['text'] !== 'string') {
      problem(at, 'a topNav item needs `text`');
      return null;
    }
    const hasLink = typeof v['link'] === 'string';
    const hasItems = Array.isArray(v['items']);
    if (hasLink === hasItems) {
      problem(at, 'a topNav item has either `link` or `items`, not both and not neither');
      return null;
    }
    if (hasLink) {
      const url = link(v['link'] as string, `${at}/link`);
      return url === null ? null : { text: v['text'], link: url };
    }
    const items = (v['items'] as unknown[]).map((c, i) => topNavItem(c, `${at}/items/${i}`)).filter((c) => c !== null);
    return { text: v['text'], items };
  };
  const topNav = array(root, 'topNav', '').map((v, i) => topNavItem(v, `/topNav/${i}`)).filter((v) => v !== null);

  const navEntry = (v: unknown, at: string): NavEntryInput | null => {
    if (!isObj(v) || typeof v['title'] !== 'string') {
      problem(at, 'a nav entry needs `title`');
      return null;
    }
    if (typeof v['path'] === 'string') {
      const path = link(v['path'], `${at}/path`);
      return path === null ? null : { title: v['title'], path };
    }
    if (Array.isArray(v['items'])) {
      const items = v['items'].map((c, i) => navEntry(c, `${at}/items/${i}`)).filter((c) => c !== null);
      const collapsed = v['collapsed'];
      return typeof collapsed === 'boolean' ? { title: v['title'], items, collapsed } : { title: v['title'], items };
    }
    problem(at, 'a nav entry needs `path` (a page) or `items` (a group)');
    return null;
  };
  const navList = (v: unknown, at: string): NavEntryInput[] =>
    Array.isArray(v) ? v.map((e, i) => navEntry(e, `${at}/${i}`)).filter((e) => e !== null) : (problem(at, 'must be an array of nav entries'), []);

  let sidebar: Map<string, NavEntryInput[]> | null = null;
  if (isObj(root['sidebar'])) {
    sidebar = new Map();
    for (const [prefix, list] of Object.entries(root['sidebar'])) sidebar.set(prefix, navList(list, `/sidebar/${prefix.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  } else if (root['sidebar'] !== undefined) problem('/sidebar', '`sidebar` must be an object of path prefix to nav entries');
  const nav = root['nav'] === undefined ? null : navList(root['nav'], '/nav');

  const socialLinks: DocsSocialLink[] = [];
  array(root, 'socialLinks', '').forEach((v, i) => {
    if (!isObj(v) || typeof v['icon'] !== 'string' || typeof v['url'] !== 'string') {
      problem(`/socialLinks/${i}`, 'a social link needs `icon` and `url`');
      return;
    }
    const url = link(v['url'], `/socialLinks/${i}/url`);
    if (url === null) return;
    socialLinks.push(typeof v['title'] === 'string' ? { icon: v['icon'], url, title: v['title'] } : { icon: v['icon'], url });
  });

  const editLinkObj = isObj(root['editLink']) ? root['editLink'] : null;
  const patternText = editLinkObj ? string(editLinkObj, 'pattern', '/editLink') : null;
  const pattern = patternText === null ? null : link(patternText, '/editLink/pattern');
  const pc = isObj(root['pageControls']) ? root['pageControls'] : {};
  const pcEdit = isObj(pc['editLink']) ? pc['editLink'] : null;

  return {
    title: string(root, 'title', ''),
    titleTemplate: string(root, 'titleTemplate', '') ?? ':title | :siteName',
    description: string(root, 'description', ''),
    baseUrl: string(root, 'baseUrl', '')?.replace(/\/+$/, '') ?? null,
    lang: string(root, 'lang', '') ?? 'en',
    head,
    brand: string(root, 'brand', ''),
    brandImage: string(root, 'brandImage', ''),
    footer: string(root, 'footer', ''),
    favicon: string(root, 'favicon', ''),
    lastUpdated: bool(root, 'lastUpdated', '', false),
    editLink: pattern ? { pattern, text: (editLinkObj && string(editLinkObj, 'text', '/editLink')) ?? 'Edit this page' } : null,
    pageControls: {
      downloadMarkdown: bool(pc, 'downloadMarkdown', '/pageControls', false),
      subscribeRss: bool(pc, 'subscribeRss', '/pageControls', false),
      editLink: pcEdit
        ? { label: string(pcEdit, 'label', '/pageControls/editLink') ?? 'Edit this page', icon: string(pcEdit, 'icon', '/pageControls/editLink') }
        : null,
    },
    topNav,
    sidebar,
    nav,
    socialLinks,
  };
}
