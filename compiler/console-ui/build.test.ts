import { describe, expect, it } from 'vitest';
import { emitConsoleUi } from './build.js';

describe('console UI bundle', () => {
  it('is byte-for-byte deterministic, hashed, free of absolute paths and inline script', async () => {
    const [a, b] = await Promise.all([emitConsoleUi(), emitConsoleUi()]);
    expect(a).toEqual(b);
    const paths = a.map((f) => f.path);
    expect(paths).toHaveLength(3);
    expect(paths.filter((p) => /^ui\/assets\/app\.[0-9a-f]{12}\.css$/.test(p))).toHaveLength(1);
    expect(paths.filter((p) => /^ui\/assets\/app\.[0-9a-f]{12}\.js$/.test(p))).toHaveLength(1);
    expect(paths).toContain('ui/index.html');
    const html = String(a.find((f) => f.path === 'ui/index.html')?.content);
    for (const p of paths.filter((x) => x.includes('/assets/'))) expect(html).toContain(`/ui/${p.slice(3)}`);
    expect(html).not.toMatch(/<script>[^<]/);
    for (const f of a) expect(String(f.content)).not.toContain(process.cwd());
  });
});
