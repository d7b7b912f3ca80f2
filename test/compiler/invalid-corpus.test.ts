/**
 * The invalid-config corpus: each test/fixtures/invalid/<case>/ holds a tiny endpoints/ tree
 * (and an environments/ folder when the case is about the settings or sync files) and expected.txt, the exact diagnostics a user sees (formatDiagnostic, sorted). Run with
 * UPDATE_GOLDEN=1 to rewrite expected.txt files, then review every changed line by eye.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, sortDiagnostics, type Diagnostic } from '../../compiler/diagnostics.js';
import { compile } from '../../compiler/pipeline.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const corpus = path.join(here, '../fixtures/invalid');
const repoRoot = path.join(here, '../..');
const update = process.env.UPDATE_GOLDEN === '1';

/** What `wharf build` (and `wharf check`, the same diagnostics) reports for a project root. */
async function diagnose(root: string): Promise<Diagnostic[]> {
  return (await compile({ root, docs: false })).diagnostics;
}

const render = (list: Diagnostic[]) => sortDiagnostics(list).map(formatDiagnostic).join('\n') + '\n';

const cases = readdirSync(corpus, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

describe('invalid-config corpus', () => {
  it('has at least 30 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases)('%s', async (name) => {
    // A project root as users have it: the case's endpoints/ next to the real schemas/.
    const root = mkdtempSync(path.join(tmpdir(), `wharf-${name}-`));
    symlinkSync(path.join(corpus, name, 'endpoints'), path.join(root, 'endpoints'));
    symlinkSync(path.join(repoRoot, 'schemas'), path.join(root, 'schemas'));
    if (existsSync(path.join(corpus, name, 'environments'))) symlinkSync(path.join(corpus, name, 'environments'), path.join(root, 'environments'));
    let actual: string;
    try {
      actual = render(await diagnose(root));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    const expectedFile = path.join(corpus, name, 'expected.txt');
    if (update) writeFileSync(expectedFile, actual);
    expect(existsSync(expectedFile), `${expectedFile} is missing; run with UPDATE_GOLDEN=1 and review it`).toBe(true);
    expect(actual.trim()).not.toBe('');
    expect(actual).toBe(readFileSync(expectedFile, 'utf8'));
  });

  it('the sample endpoints/ tree compiles without diagnostics', async () => {
    expect(render(await diagnose(repoRoot))).toBe('\n');
  });
});
