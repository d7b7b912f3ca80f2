/**
 * docs/spec-differences.md names every deliberate difference from the spec: the reserved namespace
 * that fails the build, and each status the gateway answers beyond the spec's per-type lists, each
 * one a status some registry code really has (so the page cannot name a status the gateway never
 * sends); the page is in the docs navigation.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_REGISTRY } from './registry.js';

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs');
const page = readFileSync(path.join(DOCS, 'spec-differences.md'), 'utf8');

describe('docs/spec-differences.md', () => {
  it('lists the reserved namespace failing the build, with its reason', () => {
    expect(page).toContain('`wharf build` and `wharf check` fail with `namespace-reserved`');
    expect(page).toContain('Our users want CI to catch the mistake');
  });

  it.each([405, 409, 413, 415, 502, 504])('names the gateway status %i, which the registry has', (status) => {
    expect(page).toContain(`**${status}**`);
    expect(Object.values(ERROR_REGISTRY).some((entry) => entry.status === status)).toBe(true);
  });

  it('names its codes as the registry spells them', () => {
    for (const code of page.match(/`[A-Z][A-Z_]+[A-Z]`/g) ?? []) expect(Object.keys(ERROR_REGISTRY)).toContain(code.slice(1, -1));
  });

  it('is in the docs navigation', () => {
    expect(readFileSync(path.join(DOCS, 'config.json'), 'utf8')).toContain('"path": "spec-differences"');
  });
});
