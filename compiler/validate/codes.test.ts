/**
 * docs/diagnostics.md stays in step with the codes the compiler can emit, its examples are
 * real output (lines of the invalid-config corpus), and the corpus exercises every code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VALIDATION_CODES } from './codes.js';
import { RULES } from './rules/index.js';

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (rel: string) => readFileSync(path.join(repo, rel), 'utf8');
const docs = read('docs/diagnostics.md');
const documented = [...docs.matchAll(/^### `([a-z0-9-]+)`$/gm)].map((m) => m[1] as string);

/** Codes of the stages before validation, read from their sources. */
const stageCodes = ['compiler/discover.ts', 'compiler/parse.ts', 'compiler/read-config-file.ts', 'compiler/db-snapshot/read.ts'].flatMap((file) =>
  [...read(file).matchAll(/(?:code: |fileDiagnostic\([^,]+,\s*)'([a-z0-9-]+)'/g)].map((m) => m[1] as string),
);

const corpusDir = path.join(repo, 'test/fixtures/invalid');
const corpus = readdirSync(corpusDir)
  .map((c) => readFileSync(path.join(corpusDir, c, 'expected.txt'), 'utf8'))
  .join('\n');

describe('diagnostic codes', () => {
  it('docs/diagnostics.md documents exactly the codes the compiler emits', () => {
    const emitted = [...new Set([...stageCodes, ...VALIDATION_CODES])].sort();
    expect([...documented].sort()).toEqual(emitted);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it.each(RULES.map((r) => [r.name, r] as const))('rule %s declares every code it reports', (name, rule) => {
    const source = read(`compiler/validate/rules/${name}.ts`);
    const reported = [...source.matchAll(/(?:error|warning)\(\s*ctx,\s*'([a-z0-9-]+)'/g)].map((m) => m[1]);
    expect(reported.length).toBeGreaterThan(0);
    for (const code of reported) expect(rule.codes).toContain(code);
  });

  it('every example in docs/diagnostics.md is a line the corpus produces', () => {
    const examples = [...docs.matchAll(/^(endpoints\/\S+: (?:error|warning) .*)$/gm)].map((m) => m[1] as string);
    expect(examples.length).toBeGreaterThan(40);
    for (const line of examples) expect(corpus.split('\n')).toContain(line);
  });

  it('the corpus exercises every code but the schema fallback', () => {
    const seen = new Set([...corpus.matchAll(/: (?:error|warning) ([a-z0-9-]+)/g)].map((m) => m[1]));
    expect(documented.filter((c) => !seen.has(c))).toEqual(['schema-invalid']);
  });
});
