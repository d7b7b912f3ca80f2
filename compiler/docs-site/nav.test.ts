import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../diagnostics.js';
import { parseSiteFile } from './config.js';
import { autoNav, breadcrumbs, normalizeNavPath, prevNext, resolveNavigation, type PageRef } from './nav.js';

const pages: PageRef[] = ['index', 'guide/intro', 'guide/setup', 'api/ref', 'zeta'].map((path) => ({ path, title: path.toUpperCase(), order: null }));

function navigation(config: unknown): { nav: ReturnType<typeof resolveNavigation>; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const site = parseSiteFile('docs/config.json', JSON.stringify(config), diagnostics);
  return { nav: resolveNavigation(site, pages, 'docs/config.json', diagnostics), diagnostics };
}

describe('normalizeNavPath', () => {
  it.each([
    ['/Guide/Intro.md', 'guide/intro'],
    ['/', 'index'],
    ['guide/', 'guide'],
    ['https://x.dev', 'https://x.dev'],
  ])('%s -> %s', (given, want) => expect(normalizeNavPath(given)).toBe(want));
});

describe('sidebar resolution', () => {
  const config = {
    nav: [{ title: 'Z', path: 'zeta' }],
    sidebar: {
      '/': [{ title: 'Home', path: '/' }],
      '/guide/': [{ title: 'Guide', items: [{ title: 'Intro', path: 'guide/intro' }, { title: 'Setup', path: 'guide/setup' }, { title: 'Gone', path: 'guide/gone' }] }],
    },
  };
  it.each([
    ['guide/setup', '/guide/'],
    ['guide', '/guide/'],
    ['api/ref', '/'],
    ['guidebook', '/'],
  ])('%s uses the sidebar %s (longest prefix, / catch-all)', (path, key) => {
    const { nav } = navigation(config);
    expect(nav.sidebars[nav.sidebarIndexFor(path)]?.key).toBe(key);
  });

  it('falls back to nav when no prefix matches and warns about missing pages', () => {
    const { nav, diagnostics } = navigation({ nav: config.nav, sidebar: { '/guide': config.sidebar['/guide/'] } });
    expect(nav.sidebars[nav.sidebarIndexFor('api/ref')]?.key).toBe('nav');
    expect(diagnostics.map((d) => [d.code, d.severity, d.pointer])).toEqual([['docs-nav-missing-page', 'warning', '/sidebar/~1guide/0/items/2/path']]);
  });

  it('gives prev/next along the sidebar and breadcrumbs through groups', () => {
    const { nav } = navigation(config);
    const sidebar = nav.sidebars[nav.sidebarIndexFor('guide/setup')];
    if (!sidebar) throw new Error('no sidebar');
    expect(prevNext(sidebar, 'guide/intro')).toEqual({ prev: null, next: { title: 'Setup', path: 'guide/setup' } });
    expect(prevNext(sidebar, 'guide/setup')).toEqual({ prev: { title: 'Intro', path: 'guide/intro' }, next: null });
    expect(breadcrumbs(sidebar, { path: 'guide/setup', title: 'Setup', order: null })).toEqual([
      { title: 'Guide', path: null },
      { title: 'Setup', path: 'guide/setup' },
    ]);
    expect(breadcrumbs(sidebar, { path: 'api/ref', title: 'Ref', order: null })).toEqual([
      { title: 'Api', path: null },
      { title: 'Ref', path: 'api/ref' },
    ]);
  });
});

describe('automatic nav', () => {
  it('lists root pages (index first, then order, then path) and one group per folder', () => {
    const withOrder = pages.map((p) => (p.path === 'zeta' ? { ...p, order: 1 } : p));
    expect(autoNav(withOrder)).toEqual([
      { title: 'INDEX', path: 'index' },
      { title: 'ZETA', path: 'zeta' },
      { title: 'Api', items: [{ title: 'API/REF', path: 'api/ref' }] },
      { title: 'Guide', items: [{ title: 'GUIDE/INTRO', path: 'guide/intro' }, { title: 'GUIDE/SETUP', path: 'guide/setup' }] },
    ]);
  });
});
