import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EndpointModel } from '../../runtime/contract/index.js';
import type { OutputFile } from '../stages.js';
import { goldenModels } from './__golden__/models.js';
import { emitAll } from './index.js';

const ROOT = fileURLToPath(new URL('./__golden__/project/', import.meta.url));

function text(files: readonly OutputFile[]): Record<string, string> {
  return Object.fromEntries(files.map((f) => [f.path, typeof f.content === 'string' ? f.content : Buffer.from(f.content).toString('base64')]));
}

/** A fixed permutation (no randomness: a failing order must be reproducible). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('emitAll determinism', () => {
  const emit = async (models: readonly EndpointModel[]): Promise<Record<string, string>> =>
    text(await emitAll({ models, sourceHash: 'a'.repeat(64), root: ROOT }));

  it('two emits of the same models are byte-identical; input order does not matter', async () => {
    const first = await emit(goldenModels);
    const [second, reversed, permuted] = await Promise.all([emit(goldenModels), emit([...goldenModels].reverse()), emit(shuffled(goldenModels, 7))]);
    expect(second).toEqual(first);
    expect(reversed).toEqual(first);
    expect(permuted).toEqual(first);
  });

  it('output paths are sorted, relative and free of absolute paths of this machine', async () => {
    const files = await emitAll({ models: goldenModels, sourceHash: 'b'.repeat(64), root: ROOT });
    const paths = files.map((f) => f.path);
    expect(paths).toEqual([...paths].sort());
    for (const file of files) {
      expect(file.path).not.toMatch(/^\/|\\|\.\./);
      expect(String(file.content)).not.toContain(ROOT);
      expect(String(file.content)).not.toContain(process.cwd());
    }
  });

  it('the source hash reaches the manifest and the route index', async () => {
    const files = text(await emitAll({ models: goldenModels, sourceHash: 'c'.repeat(64), root: ROOT }));
    expect(JSON.parse(files['manifest.json'] ?? '{}')).toMatchObject({ schemaVersion: 1, sourceHash: 'c'.repeat(64) });
    expect(files['routes/index.ts']).toContain(`export const sourceHash = '${'c'.repeat(64)}';`);
    expect(files['routes.bundle.mjs']).toContain(`export const sourceHash = '${'c'.repeat(64)}';`);
  });
});
