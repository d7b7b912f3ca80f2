/**
 * Docs server settings (section `Docs`, registered in schemas/settings.schema.json): environment
 * variables with `__` as separator (`Docs__BasePath`, `Docs__Themes__PrimaryColor`) win over
 * `environments/settings.json` key `Docs`; keys match case-insensitively. Command-line flags are
 * applied by the CLI on top.
 */
import { join } from 'node:path';
import { docsPathKey } from '../contract/docs-site.js';
import { readSettingsSource } from '../settings/load-settings.js';

export type ThemeValues = Readonly<Record<string, string | boolean>>;

export interface DocsSettings {
  /** Markdown folder relative to the working directory. */
  readonly rootPath: string;
  readonly defaultPage: string;
  readonly enableHotReload: boolean;
  /** Normalized: '' or `/prefix` without trailing slash. */
  readonly basePath: string;
  readonly contentSecurityPolicy: string | null;
  /** Public origin for absolute URLs (robots.txt, sitemap, feed, llms.txt); null = request host. */
  readonly baseUrl: string | null;
  /** `Docs:AllowedHosts`: Host names answered besides loopback names, IP literals and the baseUrl host (serve/allowed-hosts.ts). */
  readonly allowedHosts: readonly string[];
  /** `Docs:Themes` as given (PascalCase keys), null when the section is absent. */
  readonly themes: ThemeValues | null;
  /** Folder with theme.json, custom.css, custom.js; default `wwwroot/theme` under the working directory. */
  readonly themeDir: string;
  /** Built-in theme (`Docs:Theme` or `--theme <name>`): `default`, `ocean` or `sepia`. */
  readonly builtInTheme: string;
}

export const BUILT_IN_THEMES = ['default', 'ocean', 'sepia'] as const;

export function normalizeBasePath(value: string | null | undefined): string {
  const trimmed = (value ?? '').trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** The docs site's settings: section `Docs` of the settings the gateway reads too (one loader, one grammar). */
export function readDocsSettings(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): DocsSettings {
  const source = readSettingsSource(join(cwd, 'environments'), env);
  const str = (key: string): string | null => {
    const value = source.string(key).trim();
    return value === '' ? null : value;
  };
  const themes = source.map('Docs:Themes');
  return {
    rootPath: str('Docs:RootPath') ?? 'docs',
    defaultPage: docsPathKey((str('Docs:DefaultPage') ?? 'index').replace(/^\/+|\/+$/g, '').replace(/\.md$/i, '')) || 'index',
    enableHotReload: source.bool('Docs:EnableHotReload'),
    basePath: normalizeBasePath(str('Docs:BasePath')),
    contentSecurityPolicy: str('Docs:ContentSecurityPolicy'),
    baseUrl: str('Docs:PublicBaseUrl'),
    allowedHosts: source.stringList('Docs:AllowedHosts') ?? [],
    themes: themes as ThemeValues | null,
    themeDir: join(cwd, 'wwwroot', 'theme'),
    builtInTheme: (str('Docs:Theme') ?? 'default').toLowerCase(),
  };
}

/** Settings with every default, for tests and in-memory use. */
export function defaultDocsSettings(overrides: Partial<DocsSettings> = {}): DocsSettings {
  return {
    rootPath: 'docs',
    defaultPage: 'index',
    enableHotReload: false,
    basePath: '',
    contentSecurityPolicy: null,
    baseUrl: null,
    allowedHosts: [],
    themes: null,
    themeDir: join(process.cwd(), 'wwwroot', 'theme'),
    builtInTheme: 'default',
    ...overrides,
    ...(overrides.basePath !== undefined ? { basePath: normalizeBasePath(overrides.basePath) } : {}),
  };
}
