/**
 * `wharf build` / `wharf check` as a user (and CI) runs them: a real child process, exit codes,
 * the diagnostics naming file:line and rule, and nothing written when the build fails.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../../compiler/output-tree.js';
import { fixtureProject, REPO_ROOT, type TempProject } from '../support/project.js';

const run = promisify(execFile);
const WHARF = path.join(REPO_ROOT, 'scripts/wharf.mjs');

async function wharf(root: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [WHARF, ...args, '--root', root, '--no-docs'], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

let project: TempProject;
beforeAll(async () => {
  project = await fixtureProject();
});
afterAll(() => project.remove());

describe('wharf build and check', () => {
  it('builds a tree, then check passes on the fresh output', async () => {
    const build = await wharf(project.root, 'build');
    expect(build.stderr).toBe('');
    expect(build.stdout).toMatch(/^Compiled 4 endpoints into generated\//);
    expect(build.code).toBe(0);
    const check = await wharf(project.root, 'check');
    expect(check.stdout).toContain('Check passed: 4 endpoints, generated/ is up to date.');
    expect(check.code).toBe(0);
  });

  it('check fails on a stale generated/ and names the file', async () => {
    const file = path.join(project.root, 'generated/openapi.json');
    const original = await readFile(file, 'utf8');
    await writeFile(file, original.replace('"Wharf API"', '"Edited by hand"'));
    const check = await wharf(project.root, 'check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('generated/openapi.json: differs from a fresh build');
    await writeFile(file, original);
  });

  it('an invalid entity.json fails the build naming file, line and rule, and writes nothing', async () => {
    const before = await listFiles(path.join(project.root, 'generated'));
    const manifest = await readFile(path.join(project.root, 'generated/manifest.json'));
    const entity = path.join(project.root, 'endpoints/SQL/Inventory/Products/entity.json');
    const original = await readFile(entity, 'utf8');
    await writeFile(entity, original.replace('"QUERY"', '"FETCH"'));
    const build = await wharf(project.root, 'build');
    expect(build.code).toBe(1);
    expect(build.stderr).toMatch(
      /endpoints\/SQL\/Inventory\/Products\/entity\.json:\d+:\d+: error allowed-methods at \/AllowedMethods\/1: /,
    );
    expect(build.stderr).toContain('Build failed: nothing was written to generated/.');
    expect(await listFiles(path.join(project.root, 'generated'))).toEqual(before);
    expect(await readFile(path.join(project.root, 'generated/manifest.json'))).toEqual(manifest);
    const check = await wharf(project.root, 'check');
    expect(check.code).toBe(1);
    await writeFile(entity, original);
  });

  it('a reserved namespace fails build and check, and build writes nothing', async () => {
    const entity = path.join(project.root, 'endpoints/Proxy/Weather/entity.json');
    const original = await readFile(entity, 'utf8');
    await writeFile(entity, original.replace('"Url"', '"Namespace": "Admin",\n  "Url"'));
    const manifest = await readFile(path.join(project.root, 'generated/manifest.json'));
    const build = await wharf(project.root, 'build');
    expect(build.code).toBe(1);
    expect(build.stderr).toContain("error namespace-reserved at /Namespace: 'Admin' is a reserved namespace name");
    expect(build.stderr).toContain('Build failed: nothing was written to generated/.');
    expect(await readFile(path.join(project.root, 'generated/manifest.json'))).toEqual(manifest);
    const check = await wharf(project.root, 'check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("error namespace-reserved at /Namespace: 'Admin' is a reserved namespace name");
    await writeFile(entity, original);
  });

  it('a misspelt optional property fails the build with a hint; comment keys pass', async () => {
    const entity = path.join(project.root, 'endpoints/SQL/Inventory/Categories/entity.json');
    const original = await readFile(entity, 'utf8');
    await writeFile(entity, original.replace('{', '{\n  "$comment": "ok", "x-owner": "ok", "CacheSeconds": 60,'));
    const build = await wharf(project.root, 'build');
    expect(build.code).toBe(1);
    expect(build.stderr).toContain("error unknown-property at /CacheSeconds: 'CacheSeconds' is not a known property of SQL endpoints");
    expect(build.stderr).toContain("hint: Did you mean 'CacheDurationSeconds'?");
    expect(build.stderr).not.toContain('x-owner');
    await writeFile(entity, original.replace('{', '{\n  "$comment": "ok", "x-owner": "ok",'));
    expect((await wharf(project.root, 'build')).code).toBe(0);
    await writeFile(entity, original);
  });

  it('a binary Static file declared as JSON is reported with a short escaped excerpt, never its raw bytes', async () => {
    const entity = path.join(project.root, 'endpoints/Static/Reference/Units/entity.json');
    const original = await readFile(entity, 'utf8');
    const content = path.join(project.root, 'endpoints/Static/Reference/Units/logo.json');
    await writeFile(content, Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n\0\0\0\rIHDR', 'latin1'), Buffer.alloc(2000, 7)]));
    await writeFile(entity, JSON.stringify({ ContentFile: './logo.json' }));
    const build = await wharf(project.root, 'build');
    expect(build.code).toBe(1);
    expect(build.stderr).toContain(
      'error static-content-malformed: ./logo.json: the file looks binary, not JSON (it starts "\\ufffdPNG\\r\\n\\u001a\\n\\u0000\\u0000\\u0000\\rIHDR…")',
    );
    expect(build.stderr).toContain('hint: application/json content is parsed into records: set "ContentType" to the file\'s real type');
    // nothing a terminal would act on: no control character but the line ends
    expect(build.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(build.stderr.length).toBeLessThan(1000);
    await writeFile(entity, original);
  });

  it('WriteMode Table without a PrimaryKey says that Table mode needs one', async () => {
    const entity = path.join(project.root, 'endpoints/SQL/Inventory/Categories/entity.json');
    const original = await readFile(entity, 'utf8');
    const config = JSON.parse(original) as Record<string, unknown>;
    delete config['PrimaryKey'];
    await writeFile(entity, JSON.stringify({ ...config, AllowedMethods: ['GET', 'POST'], WriteMode: 'Table' }, null, 2));
    const build = await wharf(project.root, 'build');
    expect(build.code).toBe(1);
    expect(build.stderr).toMatch(
      /entity\.json:\d+:\d+: error primary-key-not-allowed at \/WriteMode: WriteMode 'Table' needs a PrimaryKey: none is declared and the default 'Id' is not one of the AllowedColumns\n/,
    );
    expect(build.stderr).toContain('hint: Set "PrimaryKey" to the key column (one of the AllowedColumns); Table mode reads, updates and deletes rows by it.');
    await writeFile(entity, original);
  });

  it('rejects unknown commands and bad flags with exit code 2', async () => {
    expect((await wharf(project.root, 'frobnicate')).code).toBe(2);
    const bad = await wharf(project.root, 'start', '--port', 'x');
    expect(bad.code).toBe(2);
    // start runs the runtime's own entry point (runtime/main.ts), which checks the port itself
    expect(bad.stderr).toContain("Option --port must be a port number from 0 to 65535 (got 'x')");
  });
});
