/**
 * POST /ui/api/endpoints/{type}/validate gives the verdict and messages of `wharf check`:
 * every entity.json of every case of the invalid corpus (test/fixtures/invalid) goes through the
 * compiler (compile, check mode) and through the running server's route (which only loads
 * .wharf/dist/validator/validator.mjs, built here as `wharf build` does), and the diagnostics for
 * that file must be identical.
 * Plus the route's own answers: unknown type, missing content, JSON given as object or string.
 */
import { isUtf8 } from 'node:buffer';
import { readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic, sortDiagnostics } from '../../compiler/diagnostics.js';
import { compile } from '../../compiler/pipeline.js';
import { TYPE_FOLDERS } from '../../compiler/stages.js';
import type { ValidatorDiagnostic } from '../../runtime/contract/manifest.js';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.join(here, '../..');
const corpus = path.join(repoRoot, 'test/fixtures/invalid');
const cases = readdirSync(corpus, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const TYPE_PARAM: Record<string, string> = { SQL: 'sql', Proxy: 'proxy', Static: 'static', Files: 'files', Webhooks: 'webhooks' };

/** endpoints/<TypeFolder>/<folders...>/<name>/entity.json files of a case that sit where an endpoint can. */
function entityFiles(dir: string, prefix = 'endpoints'): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...entityFiles(dir, rel));
    else if (entry.name === 'entity.json' && entry.isFile()) out.push(rel); // a symbolic link is a layout case (symlink-ignored)
  }
  return out.sort();
}

describe('validate route = wharf check, over the invalid corpus', () => {
  let server: TestServer;
  let endpointsLink: string;

  beforeAll(async () => {
    server = await createTestServer({ generated: { endpoints: [] }, serverSettings: { Environment: { ServerName: 'v' }, RateLimiting: { Enabled: false } } });
    const dist = (await import(pathToFileURL(path.join(repoRoot, 'scripts/runtime-dist.mjs')).href)) as { buildValidator(): Promise<unknown> };
    await dist.buildValidator();
    symlinkSync(path.join(repoRoot, 'schemas'), path.join(server.project.root, 'schemas'));
    endpointsLink = path.join(server.project.root, 'endpoints');
  });
  afterAll(() => server.close());

  let compared = 0;
  it.each(cases)('%s', async (name) => {
    rmSync(endpointsLink, { force: true });
    symlinkSync(path.join(corpus, name, 'endpoints'), endpointsLink);
    const built = (await compile({ root: server.project.root, mode: 'check', docs: false })).diagnostics;
    for (const file of entityFiles(path.join(corpus, name))) {
      const [, typeFolder, ...rest] = file.split('/');
      if (!TYPE_FOLDERS.includes(typeFolder as never) || rest.length < 3) continue; // not an endpoint place (misplaced-entity, unknown-type-folder)
      const folders = rest.slice(0, -2);
      const endpointName = rest.at(-2)!;
      const bytes = readFileSync(path.join(corpus, name, file));
      if (!isUtf8(bytes)) continue; // the encoding is the file's (json-not-utf8): the route is given text
      const text = bytes.toString('utf8');
      const response = await server.inject({
        method: 'POST',
        url: `/ui/api/endpoints/${TYPE_PARAM[typeFolder!]}/validate`,
        payload: { content: text, name: endpointName, namespace: folders.join('/') },
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json() as { valid: boolean; errors: string[]; diagnostics: ValidatorDiagnostic[] };
      const want = sortDiagnostics(built.filter((d) => d.file === file));
      expect(body.diagnostics.map(formatDiagnostic), file).toEqual(want.map(formatDiagnostic));
      expect(body.valid, file).toBe(!want.some((d) => d.severity === 'error'));
      expect(body.errors).toEqual(want.filter((d) => d.severity === 'error').map((d) => d.message));
      compared += 1;
    }
    unlinkSync(endpointsLink);
  });

  it('compared the files of the corpus (every case but the two layout cases has some)', () => {
    expect(compared).toBeGreaterThanOrEqual(cases.length - 2);
  });

  it('answers unknown types, missing content and bad locations with 400; accepts an object', async () => {
    symlinkSync(path.join(repoRoot, 'endpoints'), endpointsLink);
    try {
      const post = (type: string, payload: unknown) =>
        server.inject({ method: 'POST', url: `/ui/api/endpoints/${type}/validate`, payload: payload as Record<string, unknown> });
      const unknown = await post('graphql', { content: {} });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({ error: 'Unknown endpoint type: graphql' });
      expect((await post('sql', {})).json()).toEqual({ error: 'content is required', field: 'content' });
      expect((await post('sql', { content: {}, name: '..' })).json()).toEqual({ error: 'name must be a folder name (no / or \\, not . or ..)', field: 'name' });
      const ok = await post('proxy', { content: { Url: 'https://example.com/x', Methods: ['GET'] }, name: 'Rates', namespace: 'Shipping' });
      expect(ok.json()).toEqual({ valid: true, errors: [], warnings: [], diagnostics: [] });
      const missing = await post('sql', { content: { AllowedColumns: ['Id'] }, name: 'Things', namespace: 'Stock' });
      expect(missing.json()).toMatchObject({ valid: false, errors: expect.arrayContaining([expect.stringContaining('DatabaseObjectName')]) });
      const syntax = await post('sql', { content: '{"DatabaseObjectName": "T",}', name: 'Things', namespace: 'Stock' });
      expect((syntax.json() as { errors: string[] }).errors).toEqual(['Invalid JSON: Property name expected (property names must be double-quoted strings) at line 1, column 28']);
    } finally {
      unlinkSync(endpointsLink);
    }
  });
});
