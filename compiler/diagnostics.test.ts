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
