import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const module = fileURLToPath(new URL('./diagnostics.ts', import.meta.url));

/** The files of sortDiagnostics' result, sorted in a child process whose locale is `lang`. */
function sortedUnder(lang: string, files: readonly string[]): string[] {
  const script = `const { sortDiagnostics } = await import(${JSON.stringify(module)});
const files = ${JSON.stringify(files)};
const list = files.map((file) => ({ severity: 'error', code: 'json-syntax', file, line: 1, column: 1, pointer: '', message: 'm' }));
process.stdout.write(JSON.stringify(sortDiagnostics(list).map((d) => d.file)));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, LANG: lang, LC_ALL: lang } });
  return JSON.parse(out.toString()) as string[];
}

describe('sortDiagnostics', () => {
  it('orders files by code units, the same under every locale (Danish sorts "Aa" after "B", English "a" before "B")', () => {
    const files = ['endpoints/SQL/B/entity.json', 'endpoints/SQL/a/entity.json', 'endpoints/SQL/Aa/entity.json', 'endpoints/SQL/Z/entity.json'];
    const want = ['endpoints/SQL/Aa/entity.json', 'endpoints/SQL/B/entity.json', 'endpoints/SQL/Z/entity.json', 'endpoints/SQL/a/entity.json'];
    for (const lang of ['da_DK.UTF-8', 'en_US.UTF-8', 'C']) expect(sortedUnder(lang, files), lang).toEqual(want);
  });
});

describe('formatDiagnostic', () => {
  it('escapes control and format characters of names, keys and values: one inert line (and the hint line) per diagnostic', async () => {
    const { formatDiagnostic } = await import('./diagnostics.js');
    const text = formatDiagnostic({
      severity: 'error',
      code: 'unknown-property',
      file: 'endpoints/SQL/\u001b]0;owned\u0007/X/entity.json',
      line: 2,
      column: 3,
      pointer: '/\u001b[2J',
      message: "'\u001b[2J' is not a known property\nendpoints/SQL/Fake/entity.json:1:1: error forged: \u202eevil\u2028",
      hint: 'Did you mean \u0000?',
    });
    expect(text).toBe(
      "endpoints/SQL/\\u001b]0;owned\\u0007/X/entity.json:2:3: error unknown-property at /\\u001b[2J: '\\u001b[2J' is not a known property\\nendpoints/SQL/Fake/entity.json:1:1: error forged: \\u202eevil\\u2028\n    hint: Did you mean \\u0000?",
    );
  });
});
