/** Hot reload: an edit raises /api/build-version once and changes the page; a touch does not. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { createFixture, FIXTURE_FILES, type Fixture } from './fixture.js';

let fixture: Fixture;
let app: FastifyInstance;
let rebuilds = 0;

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 8000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}

const version = async (): Promise<number> => ((await app.inject({ url: '/api/build-version' })).json() as { version: number }).version;

beforeAll(async () => {
  fixture = createFixture();
  const site = await fixture.load();
  app = await buildDocsServer({
    site,
    settings: defaultDocsSettings({ enableHotReload: true, rootPath: fixture.docs }),
    rebuild: async () => {
      rebuilds += 1;
      return fixture.load();
    },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  fixture.cleanup();
});

describe('hot reload', () => {
  it('starts at version 1 and tells the client to poll', async () => {
    expect(await version()).toBe(1);
    expect((await app.inject({ url: '/zebra' })).body).toContain('data-hot-reload="true"');
  });

  it('raises the version once when a page changes and serves the new page', async () => {
    fixture.write('zebra.md', FIXTURE_FILES['zebra.md'] + '\nFreshly edited paragraph.\n');
    await waitFor(async () => (await version()) === 2);
    const res = await app.inject({ url: '/zebra' });
    expect(res.body).toContain('<p>Freshly edited paragraph.</p>');
    await new Promise((r) => setTimeout(r, 800));
    expect(await version()).toBe(2);
  });

  it('keeps the version when a file is touched or rewritten with the same content', async () => {
    const before = rebuilds;
    const file = join(fixture.docs, 'zebra.md');
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    await waitFor(() => rebuilds > before);
    expect(await version()).toBe(2);
    const again = rebuilds;
    writeFileSync(file, FIXTURE_FILES['zebra.md'] + '\nFreshly edited paragraph.\n');
    await waitFor(() => rebuilds > again);
    expect(await version()).toBe(2);
  });

  it('rebuilds on config.json changes and ignores other files', async () => {
    const before = rebuilds;
    writeFileSync(join(fixture.docs, 'notes.txt'), 'not docs');
    await new Promise((r) => setTimeout(r, 700));
    expect(rebuilds).toBe(before);
    const config = JSON.parse(FIXTURE_FILES['config.json'] ?? '{}') as Record<string, unknown>;
    fixture.write('config.json', JSON.stringify({ ...config, title: 'Renamed Docs' }));
    await waitFor(async () => (await version()) === 3);
    expect((await app.inject({ url: '/zebra' })).body).toContain('<title>Zebra | Renamed Docs</title>');
  });
});
