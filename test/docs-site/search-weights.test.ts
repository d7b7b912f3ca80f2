/** Search ranks by where the term is: Title 10 > Description 5 > Keywords 4 > Heading 3 > Body 1. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { createFixture, type Fixture } from './fixture.js';

const filler = 'Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu.';
const page = (title: string, description: string, keywords: string, heading: string, body: string): string =>
  `---\ntitle: ${title}\ndescription: ${description}\nkeywords: [${keywords}]\n---\n# ${title}\n\n${filler}\n\n## ${heading}\n\n${body} ${filler}\n`;

let fixture: Fixture;
let app: FastifyInstance;
beforeAll(async () => {
  fixture = createFixture({
    'e-body.md': page('Page E', 'About things', 'misc', 'Section', 'A kestrel sat here.'),
    'd-heading.md': page('Page D', 'About things', 'misc', 'Kestrel section', 'Nothing here.'),
    'c-keywords.md': page('Page C', 'About things', 'kestrel', 'Section', 'Nothing here.'),
    'b-description.md': page('Page B', 'About a kestrel', 'misc', 'Section', 'Nothing here.'),
    'a-title.md': page('Kestrel Page', 'About things', 'misc', 'Section', 'Nothing here.'),
    'f-none.md': page('Page F', 'About things', 'misc', 'Section', 'Nothing here.'),
  });
  app = await buildDocsServer({ site: await fixture.load(), settings: defaultDocsSettings() });
});
afterAll(async () => {
  await app.close();
  fixture.cleanup();
});

describe('search weights', () => {
  it('orders title, description, keywords, heading, body hits', async () => {
    const res = await app.inject({ url: '/api/search?q=kestrel' });
    expect((res.json() as { path: string }[]).map((r) => r.path)).toEqual(['/a-title', '/b-description', '/c-keywords', '/d-heading', '/e-body']);
  });

  it('puts an excerpt around the first body hit', async () => {
    const res = await app.inject({ url: '/api/search?q=kestrel' });
    const body = (res.json() as { path: string; excerpt: string }[]).find((r) => r.path === '/e-body');
    expect(body?.excerpt).toBe('…gamma delta epsilon zeta eta theta iota kappa lambda mu. A <mark>kestrel</mark> sat here. Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu.');
  });

  it('finds misspelled terms (fuzzy) and ranks them below exact hits of the same field', async () => {
    const res = await app.inject({ url: '/api/search?q=kestral' });
    expect((res.json() as { path: string }[])[0]?.path).toBe('/a-title');
  });
});
