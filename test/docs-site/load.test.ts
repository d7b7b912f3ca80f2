/** loadDocsSite reads generated/docs from disk like the in-memory build result, and refuses unknown schema versions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildDocsSite } from '../../compiler/docs-site/index.js';
import { loadDocsSite } from '../../runtime/docs-site/site.js';
import { searchSite } from '../../runtime/docs-site/search.js';
import { createFixture, type Fixture } from './fixture.js';

let fixture: Fixture;
let out: string;
beforeAll(async () => {
  fixture = createFixture();
  out = mkdtempSync(join(tmpdir(), 'wharf-generated-docs-'));
  const { files } = await buildDocsSite({ root: fixture.root });
  for (const f of files) {
    mkdirSync(dirname(join(out, f.path)), { recursive: true });
    writeFileSync(join(out, f.path), f.content);
  }
});
afterAll(() => {
  fixture.cleanup();
  rmSync(out, { recursive: true, force: true });
});

describe('loadDocsSite', () => {
  it('loads a generated/docs folder with pages, sidebars and a working search index', async () => {
    const site = await loadDocsSite(out);
    expect([...site.pages.keys()].sort()).toEqual(['guide/configure', 'guide/install', 'index', 'mixed/case', 'zebra']);
    expect(site.pages.get('zebra')?.raw).toContain('Stripes everywhere.');
    expect(site.sidebars).toHaveLength(1);
    expect(searchSite(site, 'stripes').results.map((r) => r.path)).toEqual(['/zebra']);
  });

  it('refuses a site.json with another schema version', async () => {
    const path = join(out, 'site.json');
    const original = readFileSync(path, 'utf8');
    writeFileSync(path, original.replace('"schemaVersion": 2', '"schemaVersion": 99'));
    await expect(loadDocsSite(out)).rejects.toThrow('docs site: schema version 99 is not 2; rebuild with this version of wharf');
    writeFileSync(path, original);
  });
});
