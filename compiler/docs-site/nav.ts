/**
 * Navigation: the sidebar for a page (config `sidebar` by longest path prefix, `/` catch-all,
 * then `nav`, then an automatic one from the folder tree), prev/next along the sidebar's
 * pages, and breadcrumbs (the groups leading to the page). Entries pointing at pages that do not
 * exist (yet) are dropped with a warning, so a nav can list pages before they are written.
 */
import { docsPathKey } from '../../runtime/contract/docs-site.js';
import type { Diagnostic } from '../diagnostics.js';
import type { NavEntryInput, SiteFile } from './config.js';

export interface NavNode {
  readonly title: string;
  /** Page path (`guide/intro`) or an absolute URL for external entries. */
  readonly path?: string;
  readonly items?: readonly NavNode[];
  readonly collapsed?: boolean;
}

export interface PageRef {
  readonly path: string;
  readonly title: string;
  readonly order: number | null;
}

export interface Sidebar {
  readonly key: string;
  readonly nodes: readonly NavNode[];
  /** Internal page leaves in reading order. */
  readonly leaves: readonly NavNode[];
}

export interface Crumb {
  readonly title: string;
  readonly path: string | null;
}

export const isExternal = (path: string): boolean => /^[a-z][a-z0-9+.-]*:|^\/\//i.test(path);

export function normalizeNavPath(path: string): string {
  if (isExternal(path)) return path;
  const p = docsPathKey(path.trim().replace(/^\/+|\/+$/g, '').replace(/\.md$/i, ''));
  return p === '' ? 'index' : p;
}

function toNodes(entries: readonly NavEntryInput[], pages: ReadonlySet<string>, file: string, at: string, diagnostics: Diagnostic[]): NavNode[] {
  const nodes: NavNode[] = [];
  entries.forEach((entry, i) => {
    if (entry.items) {
      const items = toNodes(entry.items, pages, file, `${at}/${i}/items`, diagnostics);
      if (items.length === 0) return;
      nodes.push(entry.collapsed === undefined ? { title: entry.title, items } : { title: entry.title, items, collapsed: entry.collapsed });
      return;
    }
    const path = normalizeNavPath(entry.path ?? '');
    if (!isExternal(path) && !pages.has(path)) {
      diagnostics.push({
        severity: 'warning',
        code: 'docs-nav-missing-page',
        file,
        line: 0,
        column: 0,
        pointer: `${at}/${i}/path`,
        message: `nav entry "${entry.title}" points at ${entry.path ?? ''}, which is not a page; it is left out`,
        hint: 'Create the Markdown file or fix the path (relative to the docs folder, without .md).',
      });
      return;
    }
    nodes.push({ title: entry.title, path });
  });
  return nodes;
}

function leavesOf(nodes: readonly NavNode[]): NavNode[] {
  return nodes.flatMap((n) => (n.items ? leavesOf(n.items) : n.path && !isExternal(n.path) ? [n] : []));
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).replace(/[-_]/g, ' ');
}

/** Automatic sidebar: root pages first (index, then `order`, then path), then one group per folder. */
export function autoNav(pages: readonly PageRef[]): NavNode[] {
  const sorted = [...pages].sort(
    (a, b) =>
      Number(b.path === 'index') - Number(a.path === 'index') ||
      (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER) ||
      // one collation on every machine (the machine's locale moved pages: generated pages must not differ)
      a.path.localeCompare(b.path, 'en'),
  );
  const root: NavNode[] = [];
  const groups = new Map<string, NavNode[]>();
  for (const page of sorted) {
    const slash = page.path.indexOf('/');
    if (slash < 0) root.push({ title: page.title, path: page.path });
    else {
      const folder = page.path.slice(0, slash);
      if (!groups.has(folder)) groups.set(folder, []);
      groups.get(folder)?.push({ title: page.title, path: page.path });
    }
  }
  return [...root, ...[...groups].map(([folder, items]) => ({ title: capitalize(folder), items }))];
}

export interface Navigation {
  readonly sidebars: readonly Sidebar[];
  sidebarIndexFor(pagePath: string): number;
}

export function resolveNavigation(site: SiteFile, pages: readonly PageRef[], file: string, diagnostics: Diagnostic[]): Navigation {
  const known = new Set(pages.map((p) => p.path));
  const sidebars: Sidebar[] = [];
  const add = (key: string, nodes: NavNode[]): number => sidebars.push({ key, nodes, leaves: leavesOf(nodes) }) - 1;
  const prefixes: { prefix: string; index: number }[] = [];
  if (site.sidebar) {
    for (const [key, entries] of site.sidebar) {
      const prefix = docsPathKey(key.replace(/^\/+|\/+$/g, ''));
      const pointer = `/sidebar/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      prefixes.push({ prefix, index: add(prefix === '' ? '/' : `/${prefix}/`, toNodes(entries, known, file, pointer, diagnostics)) });
    }
    prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
  }
  const fallback = add('nav', site.nav ? toNodes(site.nav, known, file, '/nav', diagnostics) : autoNav(pages));
  return {
    sidebars,
    sidebarIndexFor(pagePath) {
      const hit = prefixes.find((p) => p.prefix === '' || pagePath === p.prefix || pagePath.startsWith(p.prefix + '/'));
      return hit ? hit.index : fallback;
    },
  };
}

export function prevNext(sidebar: Sidebar, pagePath: string): { prev: NavNode | null; next: NavNode | null } {
  const at = sidebar.leaves.findIndex((l) => l.path === pagePath);
  if (at < 0) return { prev: null, next: null };
  return { prev: sidebar.leaves[at - 1] ?? null, next: sidebar.leaves[at + 1] ?? null };
}

/** Groups leading to the page in its sidebar, else its folders; always ends with the page. */
export function breadcrumbs(sidebar: Sidebar, page: PageRef): Crumb[] {
  const find = (nodes: readonly NavNode[], trail: Crumb[]): Crumb[] | null => {
    for (const n of nodes) {
      if (n.path === page.path) return trail;
      if (n.items) {
        const hit = find(n.items, [...trail, { title: n.title, path: null }]);
        if (hit) return hit;
      }
    }
    return null;
  };
  const trail = find(sidebar.nodes, []) ?? page.path.split('/').slice(0, -1).map((s) => ({ title: capitalize(s), path: null }));
  return [...trail, { title: page.title, path: page.path }];
}
