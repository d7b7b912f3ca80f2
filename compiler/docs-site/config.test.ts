import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../diagnostics.js';
import { parseSiteFile } from './config.js';

const parse = (value: unknown): { site: ReturnType<typeof parseSiteFile>; diagnostics: Diagnostic[] } => {
  const diagnostics: Diagnostic[] = [];
  const site = parseSiteFile('docs/config.json', typeof value === 'string' ? value : JSON.stringify(value), diagnostics);
  return { site, diagnostics };
};

describe('site file', () => {
  it('fills defaults when absent', () => {
    const diagnostics: Diagnostic[] = [];
    const site = parseSiteFile('docs/config.json', null, diagnostics);
    expect(diagnostics).toEqual([]);
    expect(site).toMatchObject({ title: null, titleTemplate: ':title | :siteName', lang: 'en', lastUpdated: false, editLink: null, nav: null, sidebar: null });
    expect(site.pageControls).toEqual({ downloadMarkdown: false, subscribeRss: false, editLink: null });
  });

  it('reads every field', () => {
    const { site, diagnostics } = parse({
      title: 'T',
      lang: 'nl',
      head: [{ tag: 'Script', attrs: { 'data-x': 1 }, content: 'a<b' }],
      editLink: { pattern: 'https://e/:path' },
      pageControls: { downloadMarkdown: true, editLink: { icon: 'pencil' } },
      topNav: [{ text: 'A', link: '/a' }, { text: 'B', items: [{ text: 'C', link: '/c' }] }],
      sidebar: { '/guide/': [{ title: 'G', items: [{ title: 'I', path: 'guide/i' }], collapsed: true }] },
      socialLinks: [{ icon: 'github', url: 'https://g', title: 'GitHub' }],
    });
    expect(diagnostics).toEqual([]);
    expect(site.head).toEqual([{ tag: 'script', attrs: { 'data-x': '1' }, content: 'a<b' }]);
    expect(site.editLink).toEqual({ pattern: 'https://e/:path', text: 'Edit this page' });
    expect(site.pageControls.editLink).toEqual({ label: 'Edit this page', icon: 'pencil' });
    expect(site.topNav).toEqual([{ text: 'A', link: '/a' }, { text: 'B', items: [{ text: 'C', link: '/c' }] }]);
    expect([...(site.sidebar ?? new Map())]).toEqual([['/guide/', [{ title: 'G', items: [{ title: 'I', path: 'guide/i' }], collapsed: true }]]]);
  });

  it.each<[string, unknown, string, string]>([
    ['invalid JSON', '{', '', 'not valid JSON'],
    ['not an object', '[]', '', 'must be a JSON object'],
    ['title type', { title: 3 }, '/title', '`title` must be a string'],
    ['lastUpdated type', { lastUpdated: 'yes' }, '/lastUpdated', 'must be true or false'],
    ['topNav both', { topNav: [{ text: 'x', link: '/a', items: [] }] }, '/topNav/0', 'either `link` or `items`'],
    ['nav leaf without path', { nav: [{ title: 'x' }] }, '/nav/0', 'needs `path`'],
    ['sidebar key escaping', { sidebar: { '/a/': [{}] } }, '/sidebar/~1a~1/0', 'needs `title`'],
    ['head tag name', { head: [{ tag: '<x>' }] }, '/head/0', 'needs `tag`'],
    ['social link', { socialLinks: [{ icon: 'github' }] }, '/socialLinks/0', 'needs `icon` and `url`'],
  ])('%s is a docs-site-file error', (_name, value, pointer, message) => {
    const { diagnostics } = parse(value);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: 'error', code: 'docs-site-file', file: 'docs/config.json', pointer });
    expect(diagnostics[0]?.message).toContain(message);
  });
});
