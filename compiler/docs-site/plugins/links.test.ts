import { describe, expect, it } from 'vitest';
import { linksPlugin, resolveAssetLink, resolveDocLink } from './links.js';
import { renderWith } from './plugin-harness.js';

describe('resolveDocLink', () => {
  it.each<[string, string, string | null]>([
    ['./other.md', 'index.md', '/other'],
    ['other.md#part', 'guide/intro.md', '/guide/other#part'],
    ['../Settings.md', 'guide/intro.md', '/settings'],
    ['/guide/Intro.md', 'a/b.md', '/guide/intro'],
    ['https://example.com/x.md', 'index.md', null],
    ['#local', 'index.md', null],
    ['image.png', 'index.md', null],
    ['../../outside.md', 'index.md', null],
  ])('%s from %s -> %s', (href, from, want) => expect(resolveDocLink(href, from)).toBe(want));
});

describe('links plugin', () => {
  it('rewrites .md links to page URLs and records links to missing pages', () => {
    const { html, env } = renderWith(linksPlugin, '# T\n\n[a](./guide/a.md) [b](./missing.md) [c](https://x.dev)', 'index.md', ['guide/a', 'index']);
    expect(html).toBe('<h1>T</h1>\n<p><a href="/guide/a">a</a> <a href="/missing">b</a> <a href="https://x.dev">c</a></p>\n');
    expect(env.problems).toEqual([{ code: 'docs-broken-link', line: 3, message: 'link ./missing.md does not point at a page' }]);
  });

  it('records images missing from the docs folder, relative or root-relative, with their line', () => {
    const source = '![ok](./img/a.png)\n\n![gone](img/gone.png)\n\n![root](/img/Root.png) ![ext](https://x.dev/a.png)';
    const { env } = renderWith(linksPlugin, source, 'guide/x.md', ['guide/x'], ['guide/img/a.png', 'img/root.png']);
    expect(env.problems).toEqual([{ code: 'docs-missing-image', line: 3, message: 'image img/gone.png is not in the docs folder' }]);
  });
});

describe('resolveAssetLink', () => {
  it.each<[string, string, string | null]>([
    ['./img/a.png', 'index.md', '/img/a.png'],
    ['../img/A.PNG', 'guide/x.md', '/img/A.PNG'],
    ['spec.pdf#page=2', 'guide/x.md', '/guide/spec.pdf#page=2'],
    ['/img/a.png', 'guide/x.md', null],
    ['https://x.dev/a.png', 'index.md', null],
    ['notes.txt', 'index.md', null],
    ['../../up.png', 'index.md', null],
  ])('%s from %s -> %s', (href, from, want) => expect(resolveAssetLink(href, from)).toBe(want));
});
