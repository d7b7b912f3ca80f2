import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeBasePath, readDocsSettings } from './settings.js';

describe('normalizeBasePath', () => {
  it.each([
    [null, ''],
    ['', ''],
    ['/', ''],
    ['docs', '/docs'],
    ['/docs/', '/docs'],
  ])('%j -> %j', (given, want) => expect(normalizeBasePath(given)).toBe(want));
});

describe('readDocsSettings', () => {
  it('uses defaults without settings', () => {
    const s = readDocsSettings({}, tmpdir());
    expect(s).toMatchObject({ rootPath: 'docs', defaultPage: 'index', enableHotReload: true, basePath: '', contentSecurityPolicy: null, themes: null });
  });

  it('reads environments/settings.json key Docs and lets Docs__ variables win', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'wharf-settings-'));
    mkdirSync(join(cwd, 'environments'));
    writeFileSync(
      join(cwd, 'environments', 'settings.json'),
      JSON.stringify({ Docs: { RootPath: 'manual', BasePath: 'from-file', EnableHotReload: false, Themes: { PrimaryColor: '#111', DarkMode: false } } }),
    );
    const s = readDocsSettings({ Docs__BasePath: '/from-env/', docs__themes__primarycolor: '#222', Docs__DefaultPage: 'Start.md', Docs__ContentSecurityPolicy: "default-src 'none'" }, cwd);
    expect(s).toMatchObject({ rootPath: 'manual', basePath: '/from-env', enableHotReload: false, defaultPage: 'start', contentSecurityPolicy: "default-src 'none'" });
    expect(s.themes).toEqual({ PrimaryColor: '#111', DarkMode: false, primarycolor: '#222' });
    rmSync(cwd, { recursive: true, force: true });
  });
});
