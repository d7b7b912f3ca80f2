import { describe, expect, it } from 'vitest';
import type { DocsSiteConfig } from '../contract/docs-site.js';
import { pageTitle, renderHeadTag, withBase } from './layout.js';

const config = (over: Partial<DocsSiteConfig>): DocsSiteConfig => ({
  title: 'Site', titleTemplate: ':title | :siteName', description: null, lang: 'en', head: [], brand: null, brandImage: null,
  footerHtml: '', favicon: null, lastUpdated: false, pageControls: { downloadMarkdown: false, subscribeRss: false }, topNav: [], socialLinks: [], ...over,
});

describe('pageTitle', () => {
  it.each<[Partial<DocsSiteConfig>, string, string]>([
    [{}, 'Page', 'Page | Site'],
    [{}, 'Site', 'Site'],
    [{ titleTemplate: ':siteName — :title' }, 'Page', 'Site — Page'],
    [{ title: null, brand: 'Brand' }, 'Page', 'Page | Brand'],
    [{ title: null }, 'Page', 'Page'],
  ])('%j %s', (over, title, want) => expect(pageTitle(config(over), title)).toBe(want));
});

describe('renderHeadTag', () => {
  it.each([
    [{ tag: 'meta', attrs: { name: 'a', content: '<"&>' }, content: null }, '<meta name="a" content="&lt;&quot;&amp;&gt;">'],
    [{ tag: 'link', attrs: { rel: 'x' }, content: 'ignored' }, '<link rel="x">'],
    [{ tag: 'script', attrs: {}, content: 'if (a < b) go();' }, '<script nonce="__WHARF_NONCE__">if (a < b) go();</script>'],
    [{ tag: 'style', attrs: {}, content: 'a > b {}' }, '<style>a > b {}</style>'],
    [{ tag: 'noscript', attrs: {}, content: '<b>' }, '<noscript>&lt;b&gt;</noscript>'],
  ])('%j', (tag, want) => expect(renderHeadTag(tag)).toBe(want));
});

describe('withBase', () => {
  it('prefixes root-relative href and src only', () => {
    expect(withBase('<a href="/x"><img src="/y.png"><a href="//cdn/z"><a href="https://e/"><a href="#h">', '/docs')).toBe(
      '<a href="/docs/x"><img src="/docs/y.png"><a href="//cdn/z"><a href="https://e/"><a href="#h">',
    );
  });
});
