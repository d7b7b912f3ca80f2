/** Site-file (docs/config.json) features as rendered by the server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { createFixture, type Fixture } from './fixture.js';

const config = {
  title: 'Handbook',
  titleTemplate: ':siteName / :title',
  lang: 'nl',
  brand: 'HB',
  brandImage: '/logo.svg',
  favicon: '/favicon.ico',
  editLink: { pattern: 'https://git.example/edit/docs/:path', text: 'Improve this page' },
  pageControls: { editLink: { label: 'Edit', icon: 'pencil' } },
  topNav: [{ text: 'More', items: [{ text: 'Site', link: 'https://example.org' }, { text: 'API', link: '/api/intro' }] }],
  socialLinks: [{ icon: 'mastodon', url: 'https://m.example/@x', title: 'Mastodon' }, { icon: 'rss', url: 'https://f.example' }],
  sidebar: {
    '/api/': [
      { title: 'Open', items: [{ title: 'Intro', path: 'api/intro' }], collapsed: false },
      { title: 'Closed', items: [{ title: 'Deep', path: 'api/deep' }], collapsed: true },
      { title: 'Plain', items: [{ title: 'External', path: 'https://ext.example' }] },
    ],
    '/': [{ title: 'Start', path: 'index' }],
  },
};

let fixture: Fixture;
let app: FastifyInstance;
beforeAll(async () => {
  fixture = createFixture({
    'config.json': JSON.stringify(config),
    'index.md': '---\ntoc: false\n---\n# Start\n\n## Hidden outline\n',
    'api/intro.md': '# Intro\n\n## Part\n',
    'api/deep.md': '# Deep\n',
  });
  app = await buildDocsServer({ site: await fixture.load(), settings: defaultDocsSettings({ basePath: '/hb', themeDir: fixture.root }) });
});
afterAll(async () => {
  await app.close();
  fixture.cleanup();
});

describe('site file', () => {
  it('renders head, brand, top nav and social links', async () => {
    const { body } = await app.inject({ url: '/hb/api/intro' });
    expect(body).toContain('<html lang="nl">');
    expect(body).toContain('<title>Handbook / Intro</title>');
    expect(body).toContain('<link rel="icon" href="/hb/favicon.ico">');
    expect(body).toContain('<a class="brand" href="/hb/"><img class="brand-image" src="/hb/logo.svg" alt="" height="28"><span>HB</span></a>');
    expect(body).toContain('<details class="topnav-menu"><summary>More</summary><ul><li><a href="https://example.org" target="_blank" rel="noopener noreferrer">Site</a></li><li><a href="/hb/api/intro">API</a></li></ul></details>');
    expect(body).toMatch(/<a class="social" href="https:\/\/m\.example\/@x"[^>]*aria-label="Mastodon" title="Mastodon"><svg/);
    expect(body).toContain('aria-label="rss" title="rss">rss</a>');
  });

  it('picks the sidebar by longest prefix with open, closed and plain groups', async () => {
    const { body } = await app.inject({ url: '/hb/api/intro' });
    expect(body).toContain('<li class="group"><details open><summary>Open</summary><ul><li><a href="/hb/api/intro" aria-current="page">Intro</a></li></ul></details></li>');
    expect(body).toContain('<li class="group"><details><summary>Closed</summary>');
    expect(body).toContain('<li class="group"><p class="group-title">Plain</p><ul><li><a href="https://ext.example" target="_blank" rel="noopener noreferrer">External</a></li></ul></li>');
    const home = await app.inject({ url: '/hb/' });
    expect(home.body).toContain('<nav class="sidebar-nav" aria-label="Sidebar"><ul><li><a href="/hb/index" aria-current="page">Start</a></li></ul></nav>');
  });

  it('renders the edit link pattern, the edit control and hides the outline with toc: false', async () => {
    const { body } = await app.inject({ url: '/hb/api/intro' });
    expect(body).toContain('<a class="edit-link" href="https://git.example/edit/docs/api/intro.md" target="_blank" rel="noopener noreferrer">Improve this page</a>');
    expect(body).toMatch(/<a class="control" href="https:\/\/git\.example\/edit\/docs\/api\/intro\.md" target="_blank" rel="noopener noreferrer"><svg[^]*<\/svg>Edit<\/a>/);
    expect(body).toContain('<li class="toc-h2"><a href="#part">Part</a></li>');
    expect(body).not.toContain('Last updated');
    const home = await app.inject({ url: '/hb/' });
    expect(home.body).not.toContain('class="toc"');
  });
});
