import { describe, expect, it } from 'vitest';
import { buildScope } from './build-scope.js';

describe('buildScope: which generated/ paths a build owns (prunes)', () => {
  const cases: [string, { consoleUi: boolean; path: string; want: boolean }][] = [
    ['console assets, with the UI built', { consoleUi: true, path: 'ui/index.html', want: true }],
    ['sync dashboard assets, with the UI built', { consoleUi: true, path: 'sync-ui/index.html', want: true }],
    ['console assets kept by a build without the UI', { consoleUi: false, path: 'ui/index.html', want: false }],
    ['sync dashboard assets kept by a build without the UI', { consoleUi: false, path: 'sync-ui/assets/app.0123456789ab.js', want: false }],
    ['endpoint files always', { consoleUi: false, path: 'manifest.json', want: true }],
    ['docs pages of older builds (no longer emitted: pruned)', { consoleUi: false, path: 'docs/site.json', want: true }],
  ];
  it.each(cases)('%s', (_name, { consoleUi, path, want }) => {
    expect(buildScope({ root: '/nonexistent', docs: false, consoleUi }).owns(path)).toBe(want);
  });
});
