/**
 * `wharf dev` with Static content: a saved change to a content file is answered by the running
 * server without a restart; a save that does not parse is reported by the build and the last
 * content that parsed keeps answering filtered requests.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevFixture, type DevFixture } from '../support/dev-session.js';

let fixture: DevFixture;

async function codes(): Promise<string[]> {
  const res = await fetch(`${fixture.dev.server.url}/api/demo/Reference/Countries?$select=code&$orderby=code`, {
    headers: { authorization: `Bearer ${fixture.demo}` },
  });
  return ((await res.json()) as { value: { code: string }[] }).value.map((row) => row.code);
}

beforeAll(async () => {
  fixture = await startDevFixture();
}, 60_000);

afterAll(async () => fixture?.close());

describe('wharf dev with Static content', () => {
  it('an edited content file is served; a broken one is reported and the last good content answers', async () => {
    const file = path.join(fixture.project.root, 'endpoints/Static/Reference/Countries/countries.json');
    expect(await codes()).toContain('DE');
    const rows = JSON.parse(await readFile(file, 'utf8')) as { code: string }[];
    await writeFile(file, JSON.stringify([...rows, { code: 'ZZ', name: 'Zedland', region: 'Nowhere', population: 1 }]));
    await fixture.eventually(async () => (await codes()).includes('ZZ'), 'the added record');

    await writeFile(file, '[ { "code": "XX", } ]');
    await fixture.eventually(async () => fixture.lines.some((l) => l.includes('static-content-malformed')), 'the build error');
    expect(await codes()).toContain('ZZ');
  }, 60_000);
});
