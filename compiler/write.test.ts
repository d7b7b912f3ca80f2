import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diffOutputs, isClean, listFiles } from './output-tree.js';
import { writeOutputs } from './write.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wharf-write-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const all = () => true;

describe('writeOutputs', () => {
  it('writes new files, rewrites only changed ones, prunes stale owned files and empty folders', async () => {
    const first = await writeOutputs(dir, [
      { path: 'manifest.json', content: '{"a":1}' },
      { path: 'routes/sql/A.ts', content: 'export default 1;\n' },
      { path: 'routes/sql/Old/B.ts', content: 'export default 2;\n' },
    ], all);
    expect(first).toEqual({ written: ['routes/sql/A.ts', 'routes/sql/Old/B.ts', 'manifest.json'], removed: [] });
    const before = (await stat(path.join(dir, 'routes/sql/A.ts'))).mtimeMs;

    await new Promise((r) => setTimeout(r, 20));
    const second = await writeOutputs(dir, [
      { path: 'manifest.json', content: '{"a":2}' },
      { path: 'routes/sql/A.ts', content: 'export default 1;\n' },
    ], all);
    expect(second).toEqual({ written: ['manifest.json'], removed: ['routes/sql/Old/B.ts'] });
    expect((await stat(path.join(dir, 'routes/sql/A.ts'))).mtimeMs).toBe(before);
    expect(await listFiles(dir)).toEqual(['manifest.json', 'routes/sql/A.ts']);
    expect(await readFile(path.join(dir, 'manifest.json'), 'utf8')).toBe('{"a":2}');
  });

  it('never prunes files outside the owned scope', async () => {
    await mkdir(path.join(dir, 'docs'), { recursive: true });
    await writeFile(path.join(dir, 'docs/page.html'), 'x');
    const report = await writeOutputs(dir, [{ path: 'manifest.json', content: '{}' }], (p) => !p.startsWith('docs/'));
    expect(report.removed).toEqual([]);
    expect(await listFiles(dir)).toEqual(['docs/page.html', 'manifest.json']);
  });
});

describe('diffOutputs', () => {
  it('reports changed, missing and stale files', async () => {
    await writeOutputs(dir, [
      { path: 'a.json', content: '1' },
      { path: 'b.json', content: '2' },
      { path: 'c.json', content: '3' },
    ], all);
    const report = await diffOutputs(dir, [
      { path: 'a.json', content: '1' },
      { path: 'b.json', content: 'changed' },
      { path: 'd.json', content: 'new' },
    ], all);
    expect(report).toEqual({ changed: ['b.json'], missing: ['d.json'], stale: ['c.json'] });
    expect(isClean(report)).toBe(false);
    expect(isClean(await diffOutputs(dir, [
      { path: 'a.json', content: '1' },
      { path: 'b.json', content: '2' },
      { path: 'c.json', content: Buffer.from('3') },
    ], all))).toBe(true);
  });

  it('a file absent from the folder is missing even when the record of the last write vouches for it', async () => {
    await writeOutputs(dir, [{ path: 'a.json', content: '1' }], all);
    await rm(path.join(dir, 'a.json'));
    // a record that (wrongly) vouches for every file: the listing, not the record, says what is there
    const report = await diffOutputs(dir, [{ path: 'a.json', content: '1' }], all, async () => true);
    expect(report).toEqual({ changed: [], missing: ['a.json'], stale: [] });
  });
});
