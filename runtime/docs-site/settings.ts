/**
 * Docs server settings (section `Docs`): environment variables with `__` as separator
 * (`Docs__BasePath`, `Docs__Themes__PrimaryColor`) win over `environments/settings.json` key
 * `Docs`; keys match case-insensitively. Command-line flags are applied by the CLI on top.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

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

export type Section = Record<string, unknown>;

/** A key of a settings section, matched case-insensitively. */
export function pick(section: Section, key: string): unknown {
  const hit = Object.keys(section).find((k) => k.toLowerCase() === key.toLowerCase());
  return hit === undefined ? undefined : section[hit];
}

function parseBool(value: unknown, fallback: boolean): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return !/^(false|0|no|off)$/i.test(value.trim());
  return fallback;
}

function fromEnv(env: NodeJS.ProcessEnv): Section {
  const section: Section = {};
  for (const [name, value] of Object.entries(env)) {
    const parts = name.split('__');
    if (parts[0]?.toLowerCase() !== 'docs' || parts.length < 2 || value === undefined) continue;
    let target = section;
    for (const part of parts.slice(1, -1)) {
      const existing = pick(target, part);
      const next: Section = typeof existing === 'object' && existing !== null ? (existing as Section) : {};
      target[part] = next;
      target = next;
    }
    target[parts[parts.length - 1] ?? ''] = value;
  }
  return section;
}

/** Section `name` of environments/settings.json ({} when the file or section is missing). */
export function settingsFileSection(cwd: string, name: string): Section {
  try {
    const json: unknown = JSON.parse(readFileSync(join(cwd, 'environments', 'settings.json'), 'utf8'));
    const section = typeof json === 'object' && json !== null ? pick(json as Section, name) : undefined;
    return typeof section === 'object' && section !== null ? (section as Section) : {};
  } catch {
    return {};
  }
}

export function readDocsSettings(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): DocsSettings {
  const file = settingsFileSection(cwd, 'Docs');
  const vars = fromEnv(env);
  const get = (key: string): unknown => pick(vars, key) ?? pick(file, key);
  const str = (key: string): string | null => {
    const v = get(key);
    return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
  };
  const envThemes = pick(vars, 'Themes');
  const fileThemes = pick(file, 'Themes');
  const themes =
    envThemes || fileThemes
      ? ({ ...((fileThemes as Section | undefined) ?? {}), ...((envThemes as Section | undefined) ?? {}) } as ThemeValues)
      : null;
  return {
    rootPath: str('RootPath') ?? 'docs',
    defaultPage: (str('DefaultPage') ?? 'index').replace(/^\/+|\/+$/g, '').replace(/\.md$/i, '').toLowerCase() || 'index',
    enableHotReload: parseBool(get('EnableHotReload'), true),
    basePath: normalizeBasePath(str('BasePath')),
    contentSecurityPolicy: str('ContentSecurityPolicy'),
    baseUrl: str('PublicBaseUrl'),
    themes,
    themeDir: join(cwd, 'wwwroot', 'theme'),
    builtInTheme: (str('Theme') ?? 'default').toLowerCase(),
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
    themes: null,
    themeDir: join(process.cwd(), 'wwwroot', 'theme'),
    builtInTheme: 'default',
    ...overrides,
    ...(overrides.basePath !== undefined ? { basePath: normalizeBasePath(overrides.basePath) } : {}),
  };
}
