/** The embedded demo database: the first start reports its seeding steps, a cached start reports none. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgliteDriver } from './pglite.js';
import { demoSeedProgress } from './demo-seed-progress.js';

const cacheDir = mkdtempSync(path.join(tmpdir(), 'wharf-pglite-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

async function open(): Promise<{ events: string[]; source: string; products: unknown }> {
  const events: string[] = [];
  const onStart = () => events.push('start');
  const onStep = (line: string) => events.push(line);
  const onDone = () => events.push('done');
  demoSeedProgress.on('start', onStart).on('step', onStep).on('done', onDone);
  const driver = await createPgliteDriver({ connectionString: 'embedded://demo', cacheDir });
  try {
    const rows = await driver.query('SELECT count(*)::int AS n FROM inventory."Products"', []);
    return { events, source: driver.startInfo.source, products: rows[0]?.['n'] };
  } finally {
    demoSeedProgress.off('start', onStart).off('step', onStep).off('done', onDone);
    await driver.close();
  }
}

describe('embedded demo database', () => {
  it('seeds on the first start with progress steps, then loads the cache silently', async () => {
    const first = await open();
    expect(first.source).toBe('seeded');
    expect(first.events).toEqual([
      'start',
      'initialising PostgreSQL (1/4)',
      'creating the schema (2/4)',
      'loading the demo rows (3/4)',
      `caching the data directory in ${cacheDir} (4/4)`,
      'done',
    ]);
    expect(first.products).toBe(10_000);
    const second = await open();
    expect([second.source, second.events, second.products]).toEqual(['cache', [], 10_000]);
  }, 120_000);
});
