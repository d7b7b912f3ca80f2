import { describe, expect, it } from 'vitest';
import type { RoutesBundle } from '../../runtime/contract/index.js';
import { customers, goldenModels } from './__golden__/models.js';
import { buildRouteModule } from './route-module.js';
import { emitRoutesBundle } from './routes-bundle.js';
import { sortById } from './sort.js';

function bundleText(models = goldenModels, hash = 'the-hash'): string {
  const [bundle] = emitRoutesBundle(models, hash);
  return String(bundle?.content);
}

async function load(text: string): Promise<RoutesBundle> {
  return (await import(`data:text/javascript;base64,${Buffer.from(text).toString('base64')}`)) as RoutesBundle;
}

describe('routes.bundle.mjs', () => {
  it('evaluates to exactly the route modules, in id order, with no imports', async () => {
    const text = bundleText();
    expect(text).not.toMatch(/^\s*import\b|\brequire\(/m);
    expect(text).not.toContain('/work/');
    const loaded = await load(text);
    expect(loaded.sourceHash).toBe('the-hash');
    expect(loaded.routes).toEqual(sortById(goldenModels).map(buildRouteModule));
  });

  it('gives endpoints whose names print alike distinct constants', async () => {
    const a = { ...customers, id: 'sql:A/B_C', routePath: 'A/B_C', sourceFile: 'a' };
    const b = { ...customers, id: 'sql:A_B/C', routePath: 'A_B/C', sourceFile: 'b' };
    const loaded = await load(bundleText([b, a]));
    expect(loaded.routes.map((r) => r.endpointId)).toEqual(['sql:A/B_C', 'sql:A_B/C']);
  });

  it('an empty model set is a valid module', async () => {
    expect((await load(bundleText([]))).routes).toEqual([]);
  });

  it('is byte-identical across builds', () => {
    expect(bundleText()).toBe(bundleText());
  });
});
