import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WharfError } from '../errors/wharf-error.js';
import { buildServer } from '../server.js';
import { endpointModel, routeModuleFor, writeGenerated } from '../testing/generated-fixture.js';
import { displayPath } from './display-path.js';
import { joinEndpoints, loadGenerated } from './load-generated.js';

async function loadError(dir: string): Promise<WharfError> {
  try {
    await loadGenerated(dir);
  } catch (error) {
    if (error instanceof WharfError) return error;
    throw error;
  }
  throw new Error('expected the load to fail');
}

describe('loadGenerated', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wharf-load-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('joins each model with its route module', async () => {
    await writeGenerated(dir, { endpoints: [{ kind: 'sql', routePath: 'A/B' }, { kind: 'proxy', routePath: 'C' }] });
    const loaded = await loadGenerated(dir);
    expect(loaded.sourceHash).toBe('fixture-hash-1');
    expect(loaded.endpoints.map((e) => [e.id, e.kind, e.model.routePath, e.route.routeKeys])).toEqual([
      ['proxy:C', 'proxy', 'C', ['c']],
      ['sql:A/B', 'sql', 'A/B', ['a/b']],
    ]);
    expect(JSON.parse(loaded.openapi?.checked().toString() ?? 'null').openapi).toBe('3.1.0');
  });

  it('refuses an unknown schema version with the run-build hint', async () => {
    await writeGenerated(dir, { endpoints: [], manifestOverrides: { schemaVersion: 2 } });
    const error = await loadError(dir);
    expect(error.code).toBe('LOAD_SCHEMA_VERSION');
    expect(error.message).toBe(
      `${displayPath(path.join(dir, 'manifest.json'))} has schema version 2; this runtime understands 1. Run wharf build.`,
    );
  });

  it('buildServer refuses to start on an unknown schema version', async () => {
    await writeGenerated(dir, { endpoints: [], manifestOverrides: { schemaVersion: 0 } });
    await expect(buildServer({ generatedDir: dir, environmentsDir: dir, logger: false, env: {} })).rejects.toThrow(
      /manifest\.json has schema version 0; this runtime understands 1\. Run wharf build\.$/,
    );
  });

  it.each([
    ['missing manifest', async (d: string) => unlink(path.join(d, 'manifest.json')), 'LOAD_MANIFEST_MISSING', /manifest\.json was not found\. Run wharf build\.$/],
    ['manifest not JSON', async (d: string) => writeFile(path.join(d, 'manifest.json'), '{'), 'LOAD_MANIFEST_INVALID', /manifest\.json is not a valid manifest: /],
    ['missing bundle', async (d: string) => unlink(path.join(d, 'routes.bundle.mjs')), 'LOAD_BUNDLE_FAILED', /routes\.bundle\.mjs could not be imported: file not found$/],
    ['bundle without routes', async (d: string) => writeFile(path.join(d, 'routes.bundle.mjs'), 'export const sourceHash = "fixture-hash-1";'), 'LOAD_BUNDLE_FAILED', /it must export sourceHash \(string\) and routes \(array\)$/],
    ['openapi not JSON', async (d: string) => writeFile(path.join(d, 'openapi.json'), 'nope'), 'LOAD_OPENAPI_INVALID', /openapi\.json is not valid JSON: it does not hold one JSON object \(truncated\?\)$/],
    ['openapi truncated', async (d: string) => writeFile(path.join(d, 'openapi.json'), '{"openapi": "3.1.0", "paths": {'), 'LOAD_OPENAPI_INVALID', /openapi\.json is not valid JSON: it does not hold one JSON object/],
  ] as const)('%s', async (_name, breakIt, code, message) => {
    await writeGenerated(dir, { endpoints: [{ kind: 'sql', routePath: 'A' }], sourceHash: `h-${code}-${_name.length}` });
    await breakIt(dir);
    const error = await loadError(dir);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('refuses a bundle from other sources', async () => {
    await writeGenerated(dir, { endpoints: [], sourceHash: 'aaaaaaaaaaaaaaaa', bundleHash: 'bbbbbbbbbbbbbbbb' });
    const error = await loadError(dir);
    expect(error.message).toBe(
      `${displayPath(path.join(dir, 'routes.bundle.mjs'))} was built from sources bbbbbbbbbbbb but the manifest from aaaaaaaaaaaa. Run wharf build.`,
    );
  });
});

describe('joinEndpoints', () => {
  const a = endpointModel({ kind: 'sql', routePath: 'A' });
  const b = endpointModel({ kind: 'proxy', routePath: 'B' });
  it.each([
    ['route module missing', [a, b], [routeModuleFor(a)], "generated/ is inconsistent: no route module for 'proxy:B'. Run wharf build."],
    ['extra route module', [a], [routeModuleFor(a), routeModuleFor(b)], 'generated/ is inconsistent: route modules without a manifest entry: proxy:B. Run wharf build.'],
    ['kind differs', [a], [{ ...routeModuleFor(b), endpointId: 'sql:A' }], "generated/ is inconsistent: 'sql:A' is sql in the manifest but proxy in the bundle. Run wharf build."],
  ] as const)('%s', (_name, models, routes, message) => {
    expect(() => joinEndpoints(models, routes)).toThrow(message);
  });
});
