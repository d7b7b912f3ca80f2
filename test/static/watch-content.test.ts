/**
 * `wharf dev` with Static content: a saved change to a content file is answered by the running
 * server without a restart; a save that does not parse is reported by the build and the last
 * content that parsed keeps answering filtered requests.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Printer } from '../../compiler/cli/build-command.js';
import { demoToken, startDev, type DevSession } from '../../compiler/cli/serve-command.js';
import { copyProject, type TempProject } from '../support/project.js';

const lines: string[] = [];
const print: Printer = { out: (l) => lines.push(l), err: (l) => lines.push(l) };

let project: TempProject;
let dev: DevSession;
let token: string;

async function codes(): Promise<string[]> {
  const res = await fetch(`${dev.server.url}/api/demo/Reference/Countries?$select=code&$orderby=code`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { value: { code: string }[] }).value.map((row) => row.code);
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for: ${what}\n${lines.join('\n')}`);
}

beforeAll(async () => {
  project = await copyProject();
  const env = { RateLimiting__IpLimit: '100000', RateLimiting__TokenLimit: '100000' };
  dev = await startDev({ command: 'dev', rest: [], root: project.root, port: 0, host: '127.0.0.1', docs: false }, print, { logger: false, env });
  token = (await demoToken(dev.server))!;
}, 60_000);

afterAll(async () => {
  await dev?.close();
  await project?.remove();
});

describe('wharf dev with Static content', () => {
  it('an edited content file is served; a broken one is reported and the last good content answers', async () => {
    const file = path.join(project.root, 'endpoints/Static/Reference/Countries/countries.json');
    const before = await codes();
    expect(before).toContain('DE');
    const rows = JSON.parse(await readFile(file, 'utf8')) as { code: string }[];
    await writeFile(file, JSON.stringify([...rows, { code: 'ZZ', name: 'Zedland', region: 'Nowhere', population: 1 }]));
    await eventually(async () => (await codes()).includes('ZZ'), 'the added record');

    await writeFile(file, '[ { "code": "XX", } ]');
    await eventually(async () => lines.some((l) => l.includes('static-content-malformed')), 'the build error');
    expect(await codes()).toContain('ZZ');
  }, 60_000);
});
