/**
 * Theme: `Docs:Themes` (PascalCase) or, only when that section is absent, `theme.json` in the
 * theme folder (camelCase); never merged. Colour/font options become CSS variables served as
 * `/_wharf/theme.css` (a file, so the strict CSP needs no inline style). `custom.css` loads after
 * the built-in styles unless `CustomCssUrl` is set; `custom.js` is injected before `</body>`.
 * A built-in theme other than `default` (ocean, sepia) is a stylesheet of colour variables for
 * light and dark mode loaded after docs.css; the options above still override it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_IN_THEMES, type DocsSettings, type ThemeValues } from './settings.js';

export const THEME_VARIABLES: readonly (readonly [string, string])[] = [
  ['PrimaryColor', '--primary-color'],
  ['BgColor', '--bg-color'],
  ['SidebarBg', '--sidebar-bg'],
  ['TextColor', '--text-color'],
  ['TextMuted', '--text-muted'],
  ['BorderColor', '--border'],
  ['CodeBg', '--code-bg'],
  ['AccentLight', '--accent-light'],
  ['FontSans', '--font-sans'],
  ['FontMono', '--font-mono'],
];

export interface ResolvedTheme {
  /** Built-in theme stylesheet after docs.css (`/_wharf/themes/<name>.css`), null for `default`. */
  readonly builtIn: string | null;
  /** `:root{...}` with the configured variables, '' when none. */
  readonly css: string;
  readonly brandText: string | null;
  readonly darkMode: boolean;
  readonly showScrollIndicator: boolean;
  /** Stylesheet URL after the built-in styles (CustomCssUrl, else `/theme/custom.css` when present). */
  readonly customCssUrl: string | null;
  readonly customCss: string | null;
  readonly customJs: string | null;
}

function readOptional(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function valueOf(values: ThemeValues, key: string): string | boolean | undefined {
  const hit = Object.keys(values).find((k) => k.toLowerCase() === key.toLowerCase());
  return hit === undefined ? undefined : values[hit];
}

function cssValue(value: string): string | null {
  return /[;{}<>]/.test(value) ? null : value.trim();
}

function bool(value: string | boolean | undefined, fallback: boolean): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return !/^(false|0|no|off)$/i.test(value.trim());
  return fallback;
}

export function resolveTheme(settings: Pick<DocsSettings, 'themes' | 'themeDir'> & Partial<Pick<DocsSettings, 'builtInTheme'>>): ResolvedTheme {
  let values: ThemeValues = settings.themes ?? {};
  if (settings.themes === null) {
    const json = readOptional(join(settings.themeDir, 'theme.json'));
    try {
      const parsed: unknown = json ? JSON.parse(json) : {};
      if (typeof parsed === 'object' && parsed !== null) values = parsed as ThemeValues;
    } catch {
      values = {};
    }
  }
  const vars = THEME_VARIABLES.flatMap(([key, cssVar]) => {
    const v = valueOf(values, key);
    const clean = typeof v === 'string' ? cssValue(v) : null;
    return clean ? [`  ${cssVar}: ${clean};`] : [];
  });
  const customCss = readOptional(join(settings.themeDir, 'custom.css'));
  const customCssSetting = valueOf(values, 'CustomCssUrl');
  const brand = valueOf(values, 'BrandText');
  const builtIn = settings.builtInTheme && settings.builtInTheme !== 'default' && (BUILT_IN_THEMES as readonly string[]).includes(settings.builtInTheme) ? settings.builtInTheme : null;
  return {
    builtIn,
    css: vars.length ? `:root {\n${vars.join('\n')}\n}\n` : '',
    brandText: typeof brand === 'string' && brand.trim() ? brand.trim() : null,
    darkMode: bool(valueOf(values, 'DarkMode'), true),
    showScrollIndicator: bool(valueOf(values, 'ShowScrollIndicator'), true),
    customCssUrl: typeof customCssSetting === 'string' && customCssSetting.trim() ? customCssSetting.trim() : customCss !== null ? '/theme/custom.css' : null,
    customCss,
    customJs: readOptional(join(settings.themeDir, 'custom.js')),
  };
}
