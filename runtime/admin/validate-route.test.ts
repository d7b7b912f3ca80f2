/**
 * Where the console's validator comes from: the runtime looks for it where `wharf build` puts it
 * (.wharf/dist/validator/validator.mjs, scripts/runtime-dist.mjs), not in a project's generated/;
 * a missing bundle is the registry's 503 that says to run `wharf build`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VALIDATOR_BUNDLE, ValidatorLoader } from './validate-route.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the console validator bundle', () => {
  it('is looked for where the runtime build writes it', async () => {
    const dist = (await import(pathToFileURL(path.join(repoRoot, 'scripts/runtime-dist.mjs')).href)) as { VALIDATOR_BUNDLE: string };
    expect(VALIDATOR_BUNDLE).toBe(path.join(repoRoot, '.wharf', 'dist', 'validator', 'validator.mjs'));
    expect(VALIDATOR_BUNDLE).toBe(dist.VALIDATOR_BUNDLE);
  });

  it('when missing, is CONSOLE_VALIDATOR_MISSING (503) naming the file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'wharf-validator-'));
    try {
      const error = await new ValidatorLoader(path.join(dir, 'validator.mjs')).get().catch((e: unknown) => e);
      expect(error).toMatchObject({
        code: 'CONSOLE_VALIDATOR_MISSING',
        status: 503,
        message: 'The endpoint validator is not available (.wharf/dist/validator/validator.mjs is missing). Run wharf build.',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
