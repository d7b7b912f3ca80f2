/**
 * `a.pipe(b)` passes no error from `a` to `b` and leaves `a`'s 'error' event to whoever else
 * listens: a per-request stream joined that way either hangs its response or, with no listener,
 * ends the process (issue 23 item 1). The runtime joins streams with `stream.pipeline`, which
 * destroys every stream on an error; the one `.pipe()` left wires the errors itself.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/project.js';

/** Files allowed a `.pipe(`, each handling the errors of both ends itself. */
const WIRED_BY_HAND = ['runtime/lifecycle/body-timeout.ts'];

async function runtimeSources(): Promise<string[]> {
  const entries = await readdir(path.join(REPO_ROOT, 'runtime'), { recursive: true });
  return entries
    .map((entry) => `runtime/${entry.split(path.sep).join('/')}`)
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith('runtime/console-ui/'));
}

describe('per-request streams', () => {
  it('are joined with stream.pipeline, never a bare .pipe()', async () => {
    const piping: string[] = [];
    for (const file of await runtimeSources()) {
      if (/[\w)\]]\.pipe\(/.test(await readFile(path.join(REPO_ROOT, file), 'utf8'))) piping.push(file);
    }
    expect(piping.sort()).toEqual(WIRED_BY_HAND);
  });
});
