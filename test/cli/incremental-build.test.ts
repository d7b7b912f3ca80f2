/**
 * An unchanged tree skips the compile; anything else is a full build whose bytes equal a fresh
 * build's (compiler/build-cache.ts). In process through runBuild, on our own fixture tree.
 */
import { cp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild, type Printer } from '../../compiler/cli/build-command.js';
import { listFiles } from '../../compiler/output-tree.js';
import { fixtureProject, type TempProject } from '../support/project.js';

let project: TempProject;
let fresh: TempProject;
const lines: string[] = [];
const print: Printer = { out: (l) => lines.push(l), err: (l) => lines.push(l) };

beforeAll(async () => {
  project = await fixtureProject();
  fresh = await fixtureProject();
});
afterAll(async () => {
  await project?.remove();
  await fresh?.remove();
});

async function tree(root: string): Promise<Record<string, string>> {
  const dir = path.join(root, 'generated');
  const out: Record<string, string> = {};
  for (const rel of await listFiles(dir)) out[rel] = (await readFile(path.join(dir, rel))).toString('base64');
  return out;
}

async function build(root: string): Promise<{ cached: boolean; line: string }> {
  lines.length = 0;
  const outcome = await runBuild(root, print, false);
  expect(outcome.outputs).toBeTruthy();
  return { cached: 'cached' in outcome, line: lines.at(-1) ?? '' };
}

/** A full build of the same sources in another folder, with no cache: the reference bytes. */
async function freshBuild(): Promise<Record<string, string>> {
  await rm(path.join(fresh.root, 'endpoints'), { recursive: true, force: true });
  await rm(path.join(fresh.root, 'generated'), { recursive: true, force: true });
  await rm(path.join(fresh.root, '.wharf'), { recursive: true, force: true });
  await cp(path.join(project.root, 'endpoints'), path.join(fresh.root, 'endpoints'), { recursive: true });
  expect((await build(fresh.root)).cached).toBe(false);
  return tree(fresh.root);
}

describe('incremental build', () => {
  it('builds, then an unchanged tree is not compiled again and keeps identical bytes', async () => {
    expect((await build(project.root)).cached).toBe(false);
    const first = await tree(project.root);
    const again = await build(project.root);
    expect(again.cached).toBe(true);
    expect(again.line).toMatch(/^Compiled 4 endpoints into generated\/ in \d+ ms \(unchanged since the last build: 0 file\(s\) written\)\.$/);
    expect(await tree(project.root)).toEqual(first);
    expect(first).toEqual(await freshBuild());
  });

  it('a changed entity rebuilds to the bytes of a fresh build', async () => {
    const entity = path.join(project.root, 'endpoints/SQL/Inventory/Categories/entity.json');
    await writeFile(entity, (await readFile(entity, 'utf8')).replace('"Name"', '"Name;Title"'));
    expect((await build(project.root)).cached).toBe(false);
    const rebuilt = await tree(project.root);
    expect(Buffer.from(rebuilt['openapi.json']!, 'base64').toString()).toContain('"Title"');
    expect(rebuilt).toEqual(await freshBuild());
    expect((await build(project.root)).cached).toBe(true);
  });

  const damages: Array<[string, (dir: string) => Promise<void>]> = [
    ['a deleted output', (dir) => unlink(path.join(dir, 'openapi.json'))],
    ['a hand-edited output', async (dir) => writeFile(path.join(dir, 'manifest.json'), '{}')],
    ['an extra file', (dir) => writeFile(path.join(dir, 'stray.txt'), 'x')],
  ];
  it.each(damages)('%s in generated/ makes a full build that restores it', async (_name, damage) => {
    const before = await tree(project.root);
    await damage(path.join(project.root, 'generated'));
    expect((await build(project.root)).cached).toBe(false);
    expect(await tree(project.root)).toEqual(before);
  });
});
