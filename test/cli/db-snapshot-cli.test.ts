/**
 * The snapshot commands as a user runs them (a real child process on a copy of the demo project):
 * `wharf db pull` against the embedded demo writes the committed snapshot byte for byte; a
 * misspelt AllowedColumns entry fails `wharf build` naming file, line and the closest column;
 * `wharf add sql` reproduces a demo endpoint from the snapshot, and what it writes builds.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseColumn } from '../../compiler/model/column-spec.js';
import { copyProject, REPO_ROOT, type TempProject } from '../support/project.js';

const run = promisify(execFile);
const WHARF = path.join(REPO_ROOT, 'scripts/wharf.mjs');
const SNAPSHOT = 'endpoints/database.snapshot.json';

async function wharf(root: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [WHARF, ...args, '--root', root], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

let project: TempProject;
beforeAll(async () => {
  project = await copyProject();
  // the demo's data directory, as `npm start` cached it, saves seeding PGlite again
  const cache = path.join(REPO_ROOT, '.wharf');
  const tarballs = (await readdir(cache).catch(() => [] as string[])).filter((f) => f.startsWith('pglite-demo-'));
  await mkdir(path.join(project.root, '.wharf'), { recursive: true });
  for (const f of tarballs) await copyFile(path.join(cache, f), path.join(project.root, '.wharf', f));
});
afterAll(() => project.remove());

describe('wharf db pull', () => {
  it('reads the embedded demo into the committed snapshot, byte for byte', async () => {
    const committed = await readFile(path.join(REPO_ROOT, SNAPSHOT), 'utf8');
    await rm(path.join(project.root, SNAPSHOT));
    const pull = await wharf(project.root, 'db', 'pull', '--env', 'demo');
    expect(pull.stdout).toContain(`Wrote ${SNAPSHOT}: 10 object(s) of schema(s) integrations, inventory, sales.`);
    expect(pull.code).toBe(0);
    expect(await readFile(path.join(project.root, SNAPSHOT), 'utf8')).toBe(committed);
  }, 120_000);

  it('refuses an unknown environment', async () => {
    const pull = await wharf(project.root, 'db', 'pull', '--env', 'nowhere');
    expect(pull.code).toBe(2);
    expect(pull.stderr).toContain("environment 'nowhere' is not configured");
  });
});

describe('the build checks columns against the snapshot', () => {
  it('a misspelt AllowedColumns entry fails the build with file:line:column and the closest column', async () => {
    const file = path.join(project.root, 'endpoints/SQL/Inventory/Products/entity.json');
    const original = await readFile(file, 'utf8');
    await writeFile(file, original.replace('"ProductName;Name"', '"ProdctName;Name"'));
    try {
      const build = await wharf(project.root, 'build', '--no-docs');
      expect(build.code).toBe(1);
      expect(build.stderr).toContain(
        "endpoints/SQL/Inventory/Products/entity.json:11:5: error db-column-unknown at /AllowedColumns/2: AllowedColumns entry 'ProdctName' is not a column of inventory.Products\n" +
          "    hint: Did you mean 'ProductName'? (endpoints/database.snapshot.json)",
      );
      expect(build.stderr).toContain('Build failed: nothing was written to generated/.');
    } finally {
      await writeFile(file, original);
    }
  }, 60_000);
});

describe('an incremental build follows the snapshot', () => {
  it('after a good build, a pulled snapshot without a column fails the next build on that column alone', async () => {
    const first = await wharf(project.root, 'build', '--no-docs');
    expect(first.code).toBe(0);
    const file = path.join(project.root, SNAPSHOT);
    const original = await readFile(file, 'utf8');
    const changed = original.replace('"name": "UnitsInStock"', '"name": "UnitsOnHand"');
    expect(changed).not.toBe(original);
    await writeFile(file, changed);
    try {
      const build = await wharf(project.root, 'build', '--no-docs');
      expect(build.code).toBe(1);
      expect(build.stderr).toContain(
        "endpoints/SQL/Inventory/Products/entity.json:14:5: error db-column-unknown at /AllowedColumns/5: AllowedColumns entry 'UnitsInStock' is not a column of inventory.Products\n" +
          '    hint: Columns of inventory.Products: ProductId, Sku, ProductName, CategoryId, UnitPrice, UnitsOnHand, CreatedAt (endpoints/database.snapshot.json; run `wharf db pull` if the database changed)',
      );
    } finally {
      await writeFile(file, original);
    }
  }, 60_000);
});

describe('wharf add sql', () => {
  it('reproduces the demo Warehouses endpoint: schema, object, key, every column, write mode, required columns', async () => {
    const add = await wharf(project.root, 'add', 'sql', 'inventory.Warehouses', '--namespace', 'Inventory', '--methods', 'GET,QUERY,POST,PUT,PATCH,MERGE,DELETE');
    expect(add.code).toBe(0);
    const [first, ...json] = add.stdout.split('\n');
    expect(first).toBe('// endpoints/SQL/Inventory/Warehouses/entity.json');
    const scaffold = JSON.parse(json.join('\n')) as Record<string, unknown>;
    const demo = JSON.parse(await readFile(path.join(REPO_ROOT, 'endpoints/SQL/Inventory/Warehouses/entity.json'), 'utf8')) as Record<string, unknown>;
    const dbNames = (entries: unknown) => (entries as string[]).map((e) => parseColumn(e)!.db);
    const demoColumns = (demo['AllowedColumns'] as string[]).map((e) => parseColumn(e)!);
    const requiredDb = (demo['RequiredColumns'] as string[]).map((n) => demoColumns.find((c) => c.name === n || c.db === n)!.db);
    for (const key of ['$schema', 'DatabaseSchema', 'DatabaseObjectName', 'PrimaryKey', 'AllowedMethods', 'WriteMode']) expect(scaffold[key]).toEqual(demo[key]);
    expect(dbNames(scaffold['AllowedColumns'])).toEqual(dbNames(demo['AllowedColumns']));
    expect(scaffold['RequiredColumns']).toEqual(requiredDb);
  }, 60_000);

  it('turns foreign keys to and from served objects into the demo Relationships (Products ToOne Category, Categories ToMany Products)', async () => {
    for (const [object, endpoint] of [['inventory.Products', 'Products'], ['inventory.Categories', 'Categories']]) {
      const add = await wharf(project.root, 'add', 'sql', object!, '--namespace', 'Inventory');
      expect(add.code).toBe(0);
      const scaffold = JSON.parse(add.stdout.split('\n').slice(1).join('\n')) as Record<string, unknown>;
      const demo = JSON.parse(await readFile(path.join(REPO_ROOT, `endpoints/SQL/Inventory/${endpoint}/entity.json`), 'utf8')) as Record<string, unknown>;
      expect(scaffold['Relationships']).toEqual(demo['Relationships']);
      expect(scaffold['PrimaryKey']).toBe(demo['PrimaryKey']);
    }
  }, 60_000);

  it('scaffolds a table-valued function with its parameters, and what --write puts down builds', async () => {
    const add = await wharf(project.root, 'add', 'sql', 'inventory.ProductsByCategory', '--namespace', 'Scaffolded', '--write');
    expect(add.code).toBe(0);
    expect(add.stdout).toContain('Wrote endpoints/SQL/Scaffolded/ProductsByCategory/entity.json.');
    const written = JSON.parse(await readFile(path.join(project.root, 'endpoints/SQL/Scaffolded/ProductsByCategory/entity.json'), 'utf8')) as Record<string, unknown>;
    expect(written).toEqual({
      $schema: '../../../../schemas/sql.schema.json',
      DatabaseSchema: 'inventory',
      DatabaseObjectName: 'ProductsByCategory',
      DatabaseObjectType: 'TableValuedFunction',
      FunctionParameters: [
        { Name: 'CategoryId', SqlType: 'integer', Source: 'Query', Required: true },
        { Name: 'MinPrice', SqlType: 'numeric', Source: 'Query', Required: false, DefaultValue: 'DEFAULT' },
      ],
      AllowedColumns: ['ProductId', 'Sku', 'ProductName', 'UnitPrice'],
    });
    const again = await wharf(project.root, 'add', 'sql', 'inventory.ProductsByCategory', '--namespace', 'Scaffolded', '--write');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists; nothing was written.');
    const build = await wharf(project.root, 'build', '--no-docs');
    expect(build.stderr).toBe('');
    expect(build.code).toBe(0);
  }, 60_000);

  it.each([
    ['../../Outside', "wharf add: --namespace: Namespace segment '..' must start with a letter and contain only letters, numbers, and underscores"],
    ['Sales Reports', "wharf add: --namespace: Namespace segment 'Sales Reports' must start with a letter and contain only letters, numbers, and underscores"],
    ['Admin/Tools', "wharf add: --namespace: 'Admin' is a reserved namespace name"],
  ])('--namespace %s is refused before anything is written (it wrote outside endpoints/, or a folder the build refuses)', async (namespace, message) => {
    const add = await wharf(project.root, 'add', 'sql', 'inventory.Warehouses', '--namespace', namespace, '--write');
    expect(add.stderr).toBe(`${message}\n`);
    expect(add.code).toBe(1);
    expect(await readdir(project.root)).not.toContain('Outside');
    expect(await readdir(path.join(project.root, 'endpoints/SQL'))).not.toContain('Admin');
  });

  it('names the closest problem: an object missing from the snapshot', async () => {
    const add = await wharf(project.root, 'add', 'sql', 'inventory.Nothing');
    expect(add.code).toBe(1);
    expect(add.stderr).toContain("wharf add: 'inventory.Nothing' is not in the database snapshot");
  });
});
