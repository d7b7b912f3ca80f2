import { describe, expect, it } from 'vitest';
import type { RoutesBundle } from '../../runtime/contract/index.js';
import { goldenModels } from './__golden__/models.js';
import { emitRouteFiles, ROUTES_INDEX } from './route-files.js';
import { buildRouteModule } from './route-module.js';
import { emitRoutesBundle } from './routes-bundle.js';
import { sortById } from './sort.js';

async function bundleText(files = emitRouteFiles(goldenModels, 'the-hash')): Promise<string> {
  const [bundle] = await emitRoutesBundle(files);
  return String(bundle?.content);
}

describe('routes.bundle.mjs', () => {
  it('evaluates to exactly the route modules, in id order, with no imports', async () => {
    const text = await bundleText();
    expect(text).not.toMatch(/^\s*import\b|\brequire\(/m);
    expect(text).not.toContain('/work/');
    const loaded = (await import(`data:text/javascript;base64,${Buffer.from(text).toString('base64')}`)) as RoutesBundle;
    expect(loaded.sourceHash).toBe('the-hash');
    expect(loaded.routes).toEqual(sortById(goldenModels).map(buildRouteModule));
  });

  it('is byte-identical across builds', async () => {
    expect(await bundleText()).toBe(await bundleText());
  });

  it('refuses a runtime import of anything outside generated/routes', async () => {
    const files = emitRouteFiles([], 'h').map((f) =>
      f.path === ROUTES_INDEX ? { ...f, content: `import x from 'node:fs';\nexport const y = x;\n` } : f,
    );
    await expect(emitRoutesBundle(files)).rejects.toThrow(/may not import 'node:fs'/);
  });
});
