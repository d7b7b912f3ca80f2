import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../diagnostics.js';
import { parsePageSource } from './page-source.js';

describe('front matter', () => {
  it.each([
    ['no front matter', '# Hi\n', { title: null, keywords: [], date: null, layout: 'doc', toc: true, lastUpdated: true, order: null }],
    ['all keys', '---\ntitle: T\ndescription: D\nkeywords: [a, b]\ndate: 2026-01-02\nlayout: home\ntoc: false\nlastUpdated: false\norder: 3\n---\nx', { title: 'T', description: 'D', keywords: ['a', 'b'], date: '2026-01-02T00:00:00.000Z', layout: 'home', toc: false, lastUpdated: false, order: 3 }],
    ['redirect and pagination', '---\nredirect: ./new.md\npagination: false\n---\n', { redirect: './new.md', pagination: false, hero: null, features: [] }],
    [
      'hero and features (invalid entries left out)',
      '---\nlayout: home\nhero:\n  name: Wharf\n  tagline: Fast\n  actions:\n    - {text: Start, link: /guide}\n    - {text: Src, link: "https://x", theme: alt}\n    - {text: no link}\nfeatures:\n  - {title: A, details: B}\n  - {details: no title}\n---\n',
      {
        hero: { name: 'Wharf', text: null, tagline: 'Fast', actions: [{ text: 'Start', link: '/guide', theme: 'brand' }, { text: 'Src', link: 'https://x', theme: 'alt' }] },
        features: [{ title: 'A', details: 'B', icon: null }],
      },
    ],
    ['updated wins over date, comma keywords', '---\ndate: 2026-01-02\nupdated: 2026-05-06T07:08:09Z\nkeywords: x, y\n---\n', { date: '2026-05-06T07:08:09.000Z', keywords: ['x', 'y'] }],
  ])('%s', (_name, text, want) => {
    const diagnostics: Diagnostic[] = [];
    expect(parsePageSource('docs/a.md', text, diagnostics).frontMatter).toMatchObject(want);
    expect(diagnostics).toEqual([]);
  });

  it('reports invalid YAML as a diagnostic and keeps the text', () => {
    const diagnostics: Diagnostic[] = [];
    const page = parsePageSource('docs/a.md', '---\ntitle: [unclosed\n---\nbody', diagnostics);
    expect(diagnostics.map((d) => [d.code, d.file])).toEqual([['docs-front-matter', 'docs/a.md']]);
    expect(page.frontMatter.title).toBeNull();
  });
});
