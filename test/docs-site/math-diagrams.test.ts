/**
 * Math (KaTeX at build time, stylesheet and fonts from our assets), Mermaid (script only on
 * pages with a diagram), and the per-response CSP nonce for inline head scripts, through the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { createFixture, type Fixture } from './fixture.js';

const FILES = {
  'config.json': JSON.stringify({ title: 'M', head: [{ tag: 'script', attrs: {}, content: 'window.inlineRan = true;' }] }),
  'index.md': '# Home\n\nNo formulas, costs $5 and $6.\n',
  'math.md': '# Math\n\nInline $e^{i\\pi} + 1 = 0$.\n\n$$\n\\int_0^1 x\\,dx = \\tfrac12\n$$\n',
  'flow.md': '# Flow\n\n```mermaid\ngraph LR\n  A[Build] --> B[Serve]\n```\n',
};

let fixture: Fixture;
let app: FastifyInstance;
beforeAll(async () => {
  fixture = createFixture(FILES);
  app = await buildDocsServer({ site: await fixture.load(), settings: defaultDocsSettings({ themeDir: fixture.root }) });
});
afterAll(async () => {
  await app.close();
  fixture.cleanup();
});

describe('math and diagrams', () => {
  it.each([
    ['/', { katexCss: false, katexHtml: false, mermaid: false }],
    ['/math', { katexCss: true, katexHtml: true, mermaid: false }],
    ['/flow', { katexCss: false, katexHtml: false, mermaid: true }],
  ])('%s loads only what it uses', async (url, want) => {
    const html = (await app.inject({ url })).body;
    expect({
      katexCss: html.includes('<link rel="stylesheet" href="/_wharf/katex/katex.min.css">'),
      katexHtml: html.includes('<span class="katex">'),
      mermaid: html.includes('<script src="/_wharf/mermaid.js" defer></script>'),
    }).toEqual(want);
  });

  it('renders display math with MathML and keeps the diagram source as text', async () => {
    expect((await app.inject({ url: '/math' })).body).toContain('<div class="math-display"><span class="katex-display"><span class="katex"><span class="katex-mathml"><math');
    expect((await app.inject({ url: '/flow' })).body).toContain('<pre class="mermaid">graph LR\n  A[Build] --&gt; B[Serve]\n</pre>');
  });

  it('serves the KaTeX stylesheet whose font URLs resolve to our own fonts', async () => {
    const css = (await app.inject({ url: '/_wharf/katex/katex.min.css' })).body;
    const fonts = [...css.matchAll(/url\((fonts\/[^)]+\.woff2)\)/g)].map((m) => m[1]);
    expect(fonts.length).toBeGreaterThan(10);
    for (const font of fonts) {
      const res = await app.inject({ method: 'HEAD', url: `/_wharf/katex/${font}` });
      expect([font, res.statusCode, res.headers['content-type']]).toEqual([font, 200, 'font/woff2']);
    }
  });
});

describe('CSP nonce', () => {
  it('gives each response a fresh nonce on the inline script and in the policy; the ETag stays', async () => {
    const seen = [];
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ url: '/math' });
      const nonce = /<script nonce="([^"]+)">window\.inlineRan = true;<\/script>/.exec(res.body)?.[1];
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(res.headers['content-security-policy']).toContain(`script-src 'self' 'nonce-${nonce}';`);
      expect(res.body).not.toContain('__WHARF_NONCE__');
      seen.push({ nonce, etag: res.headers['etag'] });
    }
    expect(seen[0]?.nonce).not.toBe(seen[1]?.nonce);
    expect(seen[0]?.etag).toBe(seen[1]?.etag);
    const cached = await app.inject({ url: '/math', headers: { 'if-none-match': String(seen[0]?.etag) } });
    expect(cached.statusCode).toBe(304);
  });

  it('sends no nonce when the head has no inline script', async () => {
    const plain = createFixture({ 'index.md': '# Hi\n' });
    const server = await buildDocsServer({ site: await plain.load(), settings: defaultDocsSettings({ themeDir: plain.root }) });
    const res = await server.inject({ url: '/' });
    expect(res.headers['content-security-policy']).toContain("script-src 'self'; ");
    expect(res.headers['etag']).toBe(`"${createHash('sha256').update(res.body).digest('hex')}"`);
    await server.close();
    plain.cleanup();
  });
});
