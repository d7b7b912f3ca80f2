import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveTheme, THEME_VARIABLES } from './theme.js';

describe('resolveTheme', () => {
  it('maps each option to its CSS variable (case-insensitive keys) and rejects unsafe values', () => {
    const themes = Object.fromEntries(THEME_VARIABLES.map(([key], i) => [i % 2 ? key : key.toLowerCase(), `v${i}`]));
    const theme = resolveTheme({ themes: { ...themes, codebg: 'x}</style>' }, themeDir: join(tmpdir(), 'none') });
    expect(theme.css).toBe(
      ':root {\n  --primary-color: v0;\n  --bg-color: v1;\n  --sidebar-bg: v2;\n  --text-color: v3;\n  --text-muted: v4;\n  --border: v5;\n  --accent-light: v7;\n  --font-sans: v8;\n  --font-mono: v9;\n}\n',
    );
    expect(theme).toMatchObject({ darkMode: true, showScrollIndicator: true, customCssUrl: null, customJs: null, brandText: null });
  });
});
