import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { artifactCache, type MadeArtifact } from './artifact-cache.js';

let dir: string;
let input: string;
let made: number;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wharf-artifacts-'));
  input = path.join(dir, 'input.txt');
  await writeFile(input, 'one');
  await utimes(input, new Date(2020, 0, 1), new Date(2020, 0, 1)); // written before any make starts
  made = 0;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const make = async (): Promise<MadeArtifact> => {
  made += 1;
  return { files: [{ path: 'out.txt', content: `made ${made}` }], inputs: [input] };
};

describe('artifact cache', () => {
  const cases: Array<[string, { change: (cacheDir: string) => Promise<unknown>; key?: string; remade: boolean }]> = [
    ['same key and inputs: remembered files', { change: async () => undefined, remade: false }],
    ['an input changed: made again', { change: () => writeFile(input, 'two'), remade: true }],
    ['an input deleted: made again', { change: () => rm(input), remade: true }],
    ['another key: made again', { change: async () => undefined, key: 'other', remade: true }],
    ['a corrupted record: made again', { change: (cacheDir) => writeFile(path.join(cacheDir, 'thing.json'), '{"version":1,'), remade: true }],
    ['another record version: made again', { change: (cacheDir) => writeFile(path.join(cacheDir, 'thing.json'), '{"version":0,"key":"k","inputs":[],"files":[]}'), remade: true }],
  ];
  it.each(cases)('%s', async (_name, { change, key, remade }) => {
    const cacheDir = path.join(dir, 'cache');
    const cache = artifactCache(cacheDir);
    expect(await cache.get('thing', 'k', make)).toEqual([{ path: 'out.txt', content: 'made 1' }]);
    await change(cacheDir);
    const again = await cache.get('thing', key ?? 'k', make);
    expect(again).toEqual([{ path: 'out.txt', content: remade ? 'made 2' : 'made 1' }]);
  });

  it('without a folder, makes the files every time and writes nothing', async () => {
    const cache = artifactCache(null);
    await cache.get('thing', 'k', make);
    expect(await cache.get('thing', 'k', make)).toEqual([{ path: 'out.txt', content: 'made 2' }]);
    expect(await readdir(dir)).toEqual(['input.txt']);
  });

  it('does not remember files made while an input changed', async () => {
    const cacheDir = path.join(dir, 'cache');
    const cache = artifactCache(cacheDir);
    const racing = async (): Promise<MadeArtifact> => {
      const result = await make();
      await writeFile(input, 'edited during the make');
      return result;
    };
    await cache.get('thing', 'k', racing);
    expect(await cache.get('thing', 'k', make)).toEqual([{ path: 'out.txt', content: 'made 2' }]);
  });
});
