/**
 * `wharf build` / `wharf check` on configuration files a careless or hostile contributor commits:
 * a real child process must end with exit code 1 and a `file[:line:column]` diagnostic, never a
 * crash (exit code 2, "Maximum call stack size exceeded", an EISDIR message without a file name).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureProject, REPO_ROOT, type TempProject } from '../support/project.js';

const run = promisify(execFile);
const WHARF = path.join(REPO_ROOT, 'scripts/wharf.mjs');

async function wharf(root: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [WHARF, ...args, '--root', root, '--no-docs'], { cwd: root, maxBuffer: 1 << 24 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const deep = (n: number) => `{\n  "x-notes": ${'['.repeat(n)}${']'.repeat(n)}\n}\n`;

let project: TempProject;
beforeAll(async () => {
  project = await fixtureProject();
});
afterAll(() => project.remove());

/** Writes `files` (path -> text, or null for a directory of that name), runs `command`, removes them again. */
async function withFiles(files: Record<string, string | Buffer | null>, command: 'build' | 'check') {
  const written: string[] = [];
  try {
    for (const [rel, content] of Object.entries(files)) {
      const file = path.join(project.root, rel);
      await rm(file, { recursive: true, force: true });
      if (content === null) await mkdir(file, { recursive: true });
      else {
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, content);
      }
      written.push(file);
    }
    return await wharf(project.root, command);
  } finally {
    for (const file of written) await rm(file, { recursive: true, force: true });
  }
}

describe('hostile configuration files', () => {
  it.each([
    [
      'an entity.json nested 200,000 levels deep',
      { 'endpoints/SQL/Sales/Orders/entity.json': deep(200_000) },
      'endpoints/SQL/Sales/Orders/entity.json:2:113: error json-syntax: Invalid JSON: objects and arrays are nested deeper than 100 levels at line 2, column 113',
    ],
    [
      'a directory named entity.json',
      { 'endpoints/SQL/Sales/Orders/entity.json': null },
      'endpoints/SQL/Sales/Orders/entity.json: error file-unreadable: The file cannot be read: it is a directory',
    ],
    [
      'a UTF-16 entity.json',
      { 'endpoints/SQL/Sales/Orders/entity.json': Buffer.from('\ufeff{"DatabaseObjectName": "Orders", "AllowedColumns": ["Id"]}', 'utf16le') },
      'endpoints/SQL/Sales/Orders/entity.json:1:1: error json-syntax: Invalid JSON: the file is UTF-16, not UTF-8 at line 1, column 1',
    ],
    [
      'environments/settings.json nested too deep',
      { 'environments/settings.json': deep(200_000) },
      'environments/settings.json:2:113: error json-syntax: Invalid JSON: objects and arrays are nested deeper than 100 levels at line 2, column 113',
    ],
    [
      'a directory named environments/settings.json',
      { 'environments/settings.json': null },
      'environments/settings.json: error file-unreadable: The file cannot be read: it is a directory',
    ],
    [
      "an environment's settings.json nested too deep",
      { 'environments/qa/settings.json': deep(200_000) },
      'environments/qa/settings.json:2:113: error json-syntax: Invalid JSON: objects and arrays are nested deeper than 100 levels at line 2, column 113',
    ],
    [
      'a directory named environments/sync.json',
      { 'environments/sync.json': null },
      'environments/sync.json: error file-unreadable: The file cannot be read: it is a directory',
    ],
    [
      "an environment's sync.json nested too deep",
      { 'environments/qa/sync.json': deep(200_000) },
      'environments/qa/sync.json:2:113: error json-syntax: Invalid JSON: objects and arrays are nested deeper than 100 levels at line 2, column 113',
    ],
    [
      "a key written twice in an environment's settings.json (JSON keeps the last: the first ConnectionString silently unused)",
      { 'environments/qa/settings.json': '{\n  "Provider": "embedded",\n  "ConnectionString": "embedded://qa",\n  "ConnectionString": "embedded://other"\n}\n' },
      'environments/qa/settings.json:4:3: error duplicate-key at /ConnectionString: Key "ConnectionString" is written twice in the same object (first at line 3); JSON keeps only the last one',
    ],
  ])('%s: check and build exit 1 naming the file, with no stack trace', async (_name, files, diagnostic) => {
    for (const command of ['check', 'build'] as const) {
      const result = await withFiles(files, command);
      expect(result.stderr).toContain(`${diagnostic}\n`);
      expect(result.stderr).not.toMatch(/Maximum call stack|^\s+at /m);
      expect(result.code).toBe(1);
    }
  });

  it('a Static ContentFile that is a symbolic link to a file outside the project fails the build: the gateway would serve that file', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'wharf-outside-'));
    const folder = path.join(project.root, 'endpoints/Static/Reference/Leak');
    try {
      await writeFile(path.join(outside, 'secrets.csv'), 'name,value\nDbPassword,hunter2\n');
      await mkdir(folder, { recursive: true });
      await symlink(path.join(outside, 'secrets.csv'), path.join(folder, 'data.csv'));
      await writeFile(path.join(folder, 'entity.json'), '{\n  "ContentFile": "./data.csv"\n}\n');
      for (const command of ['check', 'build'] as const) {
        const result = await wharf(project.root, command);
        expect(result.stderr).toContain(
          "endpoints/Static/Reference/Leak/entity.json:2:18: error content-file-escape at /ContentFile: ContentFile './data.csv' is a symbolic link to a file outside the endpoint folder\n",
        );
        expect(result.code).toBe(1);
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });

  it.each([
    ['a directory named generated/manifest.json', 'generated/manifest.json', 'generated/manifest.json cannot be written: a directory of that name is in the way'],
    ['a file named generated', 'generated', 'generated/README.md cannot be written: a file is in the way of its folder'],
  ])('%s: build exits 1 naming the output, with no stack trace and no temporary file left', async (_name, inTheWay, message) => {
    const target = path.join(project.root, inTheWay);
    await rm(path.join(project.root, 'generated'), { recursive: true, force: true });
    await rm(path.join(project.root, '.wharf'), { recursive: true, force: true });
    if (inTheWay === 'generated') await writeFile(target, 'not a folder\n');
    else await mkdir(path.join(target, 'inside'), { recursive: true });
    try {
      const result = await wharf(project.root, 'build');
      expect(result.stderr).toBe(`${message}\nBuild failed: generated/ could not be written completely; remove what is in the way and build again.\n`);
      expect(result.code).toBe(1);
      if (inTheWay !== 'generated') expect((await readdir(path.join(project.root, 'generated'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      await rm(path.join(project.root, 'generated'), { recursive: true, force: true });
    }
  });

  it('a folder name with a newline and a JSON key with an ESC sequence reach neither the terminal nor the generated code raw', async () => {
    // with an explicit Namespace the folders above the endpoint folder are free-form names
    const folder = path.join(project.root, 'endpoints/SQL', 'x\nprocess.exit(9)\u202e', 'Products');
    const entity = { Namespace: 'Evil', DatabaseObjectName: 'P', PrimaryKey: 'Id', AllowedColumns: ['Id'] };
    try {
      await mkdir(folder, { recursive: true });
      await writeFile(path.join(folder, 'entity.json'), JSON.stringify({ ...entity, '\u001b]0;owned\u0007\u001b[2J': 1 }));
      const failed = await wharf(project.root, 'build');
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain(
        "endpoints/SQL/x\\nprocess.exit(9)\\u202e/Products/entity.json:1:88: error unknown-property at /\\u001b]0;owned\\u0007\\u001b[2J: '\\u001b]0;owned\\u0007\\u001b[2J' is not a known property of SQL endpoints\n",
      );
      // nothing a terminal would act on: no control or format character but the line ends
      expect(failed.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202e]/);
      await writeFile(path.join(folder, 'entity.json'), JSON.stringify(entity));
      const built = await wharf(project.root, 'build');
      expect(built.code).toBe(0);
      const module = await readFile(path.join(project.root, 'generated/routes/sql/Evil/Products.ts'), 'utf8');
      expect(module.split('\n').slice(0, 2)).toEqual([
        '// Generated by wharf from endpoints/SQL/x\\nprocess.exit(9)\\u202e/Products/entity.json. Do not edit.',
        "import type { SqlRouteModule } from '../../../../runtime/contract/index.js';",
      ]);
    } finally {
      await rm(path.dirname(folder), { recursive: true, force: true });
      await rm(path.join(project.root, 'generated'), { recursive: true, force: true });
    }
  });

  // root reads every file whatever its mode: there the command runs as root without the capabilities
  // that override file modes (setpriv drops them from the bounding set), so it still reads the clone
  // wherever it lies (running it as nobody failed in a clone under a mktemp -d folder of mode 700)
  const asRoot = process.getuid?.() === 0;
  it.skipIf(asRoot && !existsSync('/usr/bin/setpriv'))('an entity.json without read permission (chmod 000): file-unreadable and exit 1, not EACCES with exit 2', async () => {
    const file = path.join(project.root, 'endpoints/Proxy/Weather/entity.json');
    await chmod(file, 0o000);
    try {
      for (const command of ['check', 'build'] as const) {
        const args = [WHARF, command, '--root', project.root, '--no-docs'];
        const [bin, argv] = asRoot ? ['/usr/bin/setpriv', ['--bounding-set', '-dac_override,-dac_read_search', '--', process.execPath, ...args]] : [process.execPath, args];
        const result = await run(bin, argv, { cwd: tmpdir() }).then(
          (r) => ({ code: 0, ...r }),
          (e: { code: number; stdout: string; stderr: string }) => e,
        );
        expect(result.stderr).toContain('endpoints/Proxy/Weather/entity.json: error file-unreadable: The file cannot be read: permission denied\n');
        expect(result.stderr).not.toContain('EACCES');
        expect(result.code).toBe(1);
      }
    } finally {
      await chmod(file, 0o644);
    }
  });
});
