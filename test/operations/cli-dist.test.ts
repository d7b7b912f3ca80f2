/**
 * The compiled command line of `wharf build` and `wharf check` (scripts/cli-dist.mjs), in a
 * throwaway copy of Wharf whose node_modules lacks tsx: the build still runs (so it runs without a
 * TypeScript loader) and writes the bytes the sources write; an edited compiler source is bundled
 * again and changes the output (the tool key follows it: the build is not "unchanged"); a touched
 * but unchanged source only refreshes the stamp.
 */
import { execFile as execFileCb } from 'node:child_process';
import { readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyWharf, fixtureProject, REPO_ROOT, type TempProject } from '../support/project.js';

const execFile = promisify(execFileCb);

let copy: string;
let project: TempProject;
const cliMain = (): string => path.join(copy, '.wharf', 'dist', 'cli', 'main.js');

async function wharf(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { stdout } = await execFile(process.execPath, [path.join(copy, 'scripts', 'wharf.mjs'), ...args], { cwd: copy, env: { ...process.env, ...env } });
  return stdout;
}

beforeAll(async () => {
  // every package but tsx: a build that needed the TypeScript loader would fail here
  copy = await copyWharf(['compiler', 'runtime', 'scripts', 'schemas', 'package.json', 'package-lock.json'], ['tsx']);
  project = await fixtureProject();
}, 120_000);

afterAll(async () => {
  await project?.remove();
  await rm(copy, { recursive: true, force: true });
});

describe('the compiled command line', () => {
  it('builds without tsx, to the bytes the sources write', async () => {
    await wharf(['build', '--root', project.root, '--no-docs']);
    const compiled = await readFile(path.join(project.root, 'generated', 'openapi.json'), 'utf8');
    expect((await stat(cliMain())).isFile()).toBe(true);
    await wharf(['check', '--root', project.root, '--no-docs']); // exits 0, else execFile rejects
    // the sources (through tsx, from the real checkout) write the same bytes
    await rm(path.join(project.root, 'generated'), { recursive: true });
    await rm(path.join(project.root, '.wharf'), { recursive: true, force: true });
    await execFile(process.execPath, [path.join(REPO_ROOT, 'scripts', 'wharf.mjs'), 'build', '--root', project.root, '--no-docs'], { env: { ...process.env, WHARF_CLI_SOURCES: '1' } });
    expect(await readFile(path.join(project.root, 'generated', 'openapi.json'), 'utf8')).toBe(compiled);
  }, 120_000);

  it('bundles an edited compiler source again, and the build follows it', async () => {
    await wharf(['build', '--root', project.root, '--no-docs']);
    const pipeline = path.join(copy, 'compiler', 'pipeline.ts');
    const source = await readFile(pipeline, 'utf8');
    expect(source).toContain('Do not edit it by hand');
    await writeFile(pipeline, source.replace('Do not edit it by hand', 'Never edit it by hand'));
    const out = await wharf(['build', '--root', project.root, '--no-docs']);
    expect(out).not.toContain('unchanged since the last build');
    expect(await readFile(path.join(project.root, 'generated', 'README.md'), 'utf8')).toContain('Never edit it by hand');
    const dir = path.dirname(cliMain());
    const bundled = await Promise.all((await readdir(dir)).filter((f) => f.endsWith('.js')).map((f) => readFile(path.join(dir, f), 'utf8')));
    expect(bundled.filter((text) => text.includes('Never edit it by hand'))).toHaveLength(1);
    expect(bundled.some((text) => text.includes('Do not edit it by hand'))).toBe(false); // the old chunk removed
  }, 120_000);

  it('a touched but unchanged source keeps the bundle and refreshes the stamp', async () => {
    await wharf(['build', '--root', project.root, '--no-docs']);
    const before = await stat(cliMain());
    const stampFile = path.join(copy, '.wharf', 'dist', 'cli', 'stamp.json');
    const stampBefore = await readFile(stampFile, 'utf8');
    const later = new Date(Date.now() + 5_000);
    await utimes(path.join(copy, 'compiler', 'pipeline.ts'), later, later);
    const out = await wharf(['build', '--root', project.root, '--no-docs']);
    expect(out).toContain('unchanged since the last build');
    expect((await stat(cliMain())).mtimeMs).toBe(before.mtimeMs);
    expect(await readFile(stampFile, 'utf8')).not.toBe(stampBefore);
  }, 120_000);

  it("the console's validator bundle: a touched input keeps it, an edited one is bundled again", async () => {
    await wharf(['build', '--root', project.root, '--no-docs']);
    expect(await wharf(['build', '--root', project.root, '--no-docs'])).toContain('Compiled runtime in .wharf/dist is up to date');
    const input = path.join(copy, 'compiler', 'validate', 'schema-store.ts');
    const later = new Date(Date.now() + 10_000);
    await utimes(input, later, later);
    expect(await wharf(['build', '--root', project.root, '--no-docs'])).toContain('Compiled runtime in .wharf/dist is up to date');
    await writeFile(input, `${await readFile(input, 'utf8')}\nexport const EDITED_FOR_A_TEST = 1;\n`);
    expect(await wharf(['build', '--root', project.root, '--no-docs'])).toContain('Compiled runtime into .wharf/dist');
    expect(await wharf(['build', '--root', project.root, '--no-docs'])).toContain('Compiled runtime in .wharf/dist is up to date');
  }, 120_000);
});
