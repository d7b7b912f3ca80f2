/**
 * Golden files: what emitAll writes for the hand-written models in __golden__/models.ts (with
 * the small fixture schemas in __golden__/project/schemas/), stored readable under
 * __golden__/expected/. `UPDATE_GOLDEN=1 npx vitest run compiler/emit/golden.test.ts` rewrites
 * them; review the diff by eye. TypeScript files are stored as `<name>.ts.golden` so the
 * project's tsc (which includes compiler/) does not typecheck them at a wrong depth.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { goldenModels } from './__golden__/models.js';
import { emitAll } from './index.js';

const EXPECTED = fileURLToPath(new URL('./__golden__/expected/', import.meta.url));
const ROOT = fileURLToPath(new URL('./__golden__/project/', import.meta.url));
const SOURCE_HASH = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

const goldenName = (path: string): string => (path.endsWith('.ts') ? `${path}.golden` : path);

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(EXPECTED, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

const files = await emitAll({ models: goldenModels, sourceHash: SOURCE_HASH, root: ROOT });

if (process.env.UPDATE_GOLDEN === '1') {
  rmSync(EXPECTED, { recursive: true, force: true });
  for (const file of files) {
    const target = join(EXPECTED, goldenName(file.path));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
}

describe('golden output of emitAll', () => {
  it('emits exactly the golden file set', () => {
    expect(files.map((f) => goldenName(f.path)).sort()).toEqual(listFiles(EXPECTED));
  });

  it.each(files.map((f) => [f.path, f] as const))('%s', (path, file) => {
    expect(String(file.content)).toBe(readFileSync(join(EXPECTED, goldenName(path)), 'utf8'));
  });
});
