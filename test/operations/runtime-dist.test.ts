/**
 * The production build of the runtime (scripts/runtime-dist.mjs), in a throwaway copy of runtime/:
 * one bundle (main.js plus lazily imported chunks) instead of a file per module; the bundled server
 * still finds the files beside its modules (the demo SQL, through the rewritten import.meta.url) and
 * requires packages lazily from there (csv-parse for a Static endpoint); the stamp says "current"
 * from file stats alone, falls back to the content hash when only mtimes changed, and says "stale"
 * when a source changed.
 */
import { execFile as execFileCb } from 'node:child_process';
import { readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWharf, fixtureProject, REPO_ROOT, type TempProject } from '../support/project.js';
import { spawnServer } from './server-process.js';

const execFile = promisify(execFileCb);

interface RuntimeDist {
  buildRuntime(): Promise<{ upToDate: boolean; written: number }>;
  isDistCurrent(): Promise<boolean>;
  DIST_MAIN: string;
}

let copy: string;
let dist: RuntimeDist;
let project: TempProject;

beforeAll(async () => {
  // the settings registry's schemas are embedded in the bundle
  copy = await copyWharf(['runtime', 'scripts', 'schemas', 'package.json']);
  dist = (await import(pathToFileURL(path.join(copy, 'scripts', 'runtime-dist.mjs')).href)) as RuntimeDist;
  project = await fixtureProject();
  await execFile(process.execPath, [path.join(REPO_ROOT, 'scripts', 'wharf.mjs'), 'build', '--root', project.root, '--no-docs'], { cwd: REPO_ROOT });
}, 120_000);

afterAll(async () => {
  await project?.remove();
  await rm(copy, { recursive: true, force: true });
});

describe('the compiled runtime', () => {
  it('is one bundle: main.js and a few chunks, no file per module', async () => {
    expect((await dist.buildRuntime()).upToDate).toBe(false);
    const top = (await readdir(path.dirname(dist.DIST_MAIN))).filter((f) => f.endsWith('.js'));
    expect(top).toContain('main.js');
    expect(top).not.toContain('server.js');
    expect(top.length).toBeLessThan(20);
    const chunks = await Promise.all(top.map((f) => readFile(path.join(path.dirname(dist.DIST_MAIN), f), 'utf8')));
    // each module's own URL, not the bundle's
    expect(chunks.some((text) => text.includes('new URL("./sql/drivers/pglite.js", import.meta.url)'))).toBe(true);
  }, 60_000);

  it('serves PGlite demo rows and a CSV Static endpoint from the bundle', async () => {
    const server = await spawnServer({ command: process.execPath, args: [dist.DIST_MAIN, '--root', project.root, '--port', '0'], env: { RateLimiting__Enabled: 'false' } });
    try {
      expect(server.token).not.toBeNull();
      const headers = { authorization: `Bearer ${server.token}` };
      const products = await fetch(`${server.url}/api/demo/Inventory/Products?$top=1&$select=ProductId`, { headers });
      expect(products.status).toBe(200);
      expect(((await products.json()) as { value: unknown[] }).value).toEqual([{ ProductId: 1 }]);
      const units = await fetch(`${server.url}/api/demo/Reference/Units`, { headers });
      expect(units.status).toBe(200);
      expect(await units.text()).toContain('Kilogram');
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 90_000);

  it('the stamp: current from stats, current after a touch (hash fallback), stale after an edit', async () => {
    await dist.buildRuntime();
    expect(await dist.isDistCurrent()).toBe(true);
    const file = path.join(copy, 'runtime', 'errors', 'registry.ts');
    const later = new Date(Date.now() + 60_000);
    await utimes(file, later, later);
    expect(await dist.isDistCurrent()).toBe(true);
    await writeFile(file, `${await readFile(file, 'utf8')}\n// edited\n`);
    expect(await dist.isDistCurrent()).toBe(false);
    expect((await dist.buildRuntime()).upToDate).toBe(false);
    expect(await dist.isDistCurrent()).toBe(true);
    // the settings registry is embedded: a schema edit makes the bundle stale too
    const schema = path.join(copy, 'schemas', 'settings.schema.json');
    await writeFile(schema, `${await readFile(schema, 'utf8')}\n`);
    expect(await dist.isDistCurrent()).toBe(false);
    expect((await dist.buildRuntime()).upToDate).toBe(false);
  }, 60_000);
});
