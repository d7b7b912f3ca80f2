import { describe, expect, it } from 'vitest';
import { builtInCsp, hasInlineScript, metaPolicyTag, newNonce } from './csp.js';

describe('builtInCsp', () => {
  it('allows only self scripts by default', () => {
    expect(builtInCsp([], null)).toContain("script-src 'self'; style-src 'self' 'unsafe-inline';");
  });

  it('adds the response nonce for inline head scripts and origins of external ones', () => {
    const inline = 'window.x = 1;';
    const nonce = newNonce();
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(newNonce()).not.toBe(nonce);
    const csp = builtInCsp(
      [
        { tag: 'script', attrs: {}, content: inline },
        { tag: 'script', attrs: { src: 'https://stats.example.com/s.js' }, content: null },
        { tag: 'link', attrs: { rel: 'stylesheet', href: 'https://fonts.example.com/f.css' }, content: null },
      ],
      null,
      nonce,
    );
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}' https://stats.example.com;`);
    expect(csp).toContain("style-src 'self' 'unsafe-inline' https://fonts.example.com;");
  });

  it.each([
    [[{ tag: 'script', attrs: {}, content: 'x()' }], true],
    [[{ tag: 'script', attrs: { src: '/a.js' }, content: null }], false],
    [[{ tag: 'meta', attrs: {}, content: null }], false],
  ])('hasInlineScript %#', (head, want) => expect(hasInlineScript(head)).toBe(want));
});

describe('metaPolicyTag', () => {
  it.each([
    ["default-src 'self'; frame-ancestors 'none'", "default-src &#39;self&#39;"],
    ["frame-ancestors https://a.example;script-src 'self' ; img-src *", "script-src &#39;self&#39;; img-src *"],
    ['default-src "x" <y>', 'default-src &quot;x&quot; &lt;y&gt;'],
  ])('%s: without frame-ancestors, attribute-escaped', (policy, content) => {
    expect(metaPolicyTag(policy)).toBe(`<meta http-equiv="Content-Security-Policy" content="${content}">`);
  });
});
