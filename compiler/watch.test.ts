import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchSources, type Watcher } from './watch.js';

let watcher: Watcher | null = null;
let root = '';
afterEach(async () => {
  await watcher?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('watchSources', () => {
  it('a rebuild that throws is reported, and the next change is built again', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'wharf-watch-'));
    await mkdir(path.join(root, 'endpoints'));
    const builds: string[][] = [];
    const failures: unknown[] = [];
    watcher = watchSources(root, ['endpoints'], async (changed) => {
      builds.push([...changed]);
      if (builds.length === 1) throw new Error('disk full');
    }, 20, (error) => failures.push(error));
    await watcher.ready;
    await writeFile(path.join(root, 'endpoints', 'a.json'), '{}');
    await until('the first build', () => builds.length === 1 && failures.length === 1);
    expect((failures[0] as Error).message).toBe('disk full');
    await writeFile(path.join(root, 'endpoints', 'b.json'), '{}');
    await until('the second build', () => builds.length === 2);
    expect(builds[1]).toEqual(['endpoints/b.json']);
    expect(failures).toHaveLength(1);
  });
});
