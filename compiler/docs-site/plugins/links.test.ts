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
    const { html, env } = renderWith(linksPlugin, '[a](./guide/a.md) [b](./missing.md) [c](https://x.dev)', 'index.md', ['guide/a', 'index']);
    expect(html).toBe('<p><a href="/guide/a">a</a> <a href="/missing">b</a> <a href="https://x.dev">c</a></p>\n');
    expect(env.brokenLinks).toEqual(['./missing.md']);
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
