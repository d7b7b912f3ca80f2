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
    // The variable replaces the file's value of the same key in any case (before, both were kept and
    // the theme's case-insensitive lookup found the file's first, so the override was ignored).
    expect(s.themes).toEqual({ PrimaryColor: '#222', DarkMode: false });
    rmSync(cwd, { recursive: true, force: true });
  });

  it.each([
    ['nope', { Docs__EnableHotReload: 'nope' }, {}, "Setting 'Docs:EnableHotReload' (from environment variable Docs__EnableHotReload) must be true or false"],
    ['a misspelt key', {}, { Docs: { EnableHotReloads: false } }, "environments/settings.json) is not a known setting. Did you mean 'Docs:EnableHotReload'?"],
  ] as const)('refuses %s instead of reading true', (_name, env, file, message) => {
    const cwd = mkdtempSync(join(tmpdir(), 'wharf-settings-'));
    mkdirSync(join(cwd, 'environments'));
    writeFileSync(join(cwd, 'environments', 'settings.json'), JSON.stringify(file));
    try {
      expect(() => readDocsSettings(env, cwd)).toThrow(message);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
