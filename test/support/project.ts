/** A throwaway copy of this project's sources (endpoints, schemas, environments) for CLI tests. */
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface TempProject {
  readonly root: string;
  remove(): Promise<void>;
}

export async function copyProject(folders: readonly string[] = ['endpoints', 'schemas', 'environments']): Promise<TempProject> {
  const root = await mkdtemp(path.join(tmpdir(), 'wharf-project-'));
  for (const folder of folders) await cp(path.join(REPO_ROOT, folder), path.join(root, folder), { recursive: true });
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}

/** A small endpoints/ tree of our own, so no test depends on the sample endpoints a user edits. */
export const FIXTURE_ENDPOINTS: Readonly<Record<string, unknown>> = {
  'SQL/Inventory/Products/entity.json': {
    DatabaseSchema: 'inventory',
    DatabaseObjectName: 'Products',
    PrimaryKey: 'ProductId',
    AllowedColumns: ['ProductId', 'Sku', 'ProductName;Name', 'CategoryId', 'UnitPrice;Price'],
    AllowedMethods: ['GET', 'QUERY'],
    Relationships: [{ Name: 'Category', Target: 'Inventory/Categories', LocalColumn: 'CategoryId', TargetColumn: 'CategoryId', Multiplicity: 'ToOne' }],
  },
  'SQL/Inventory/Categories/entity.json': {
    DatabaseSchema: 'inventory',
    DatabaseObjectName: 'Categories',
    PrimaryKey: 'CategoryId',
    AllowedColumns: ['CategoryId', 'Name'],
  },
  'Proxy/Weather/entity.json': '{\n  "Url": "http://127.0.0.1:9100/weather",\n  "Methods": ["GET"]\n}\n',
  'Static/Reference/Units/entity.json': { ContentFile: './units.csv' },
  'Static/Reference/Units/units.csv': 'code,name\nkg,Kilogram\n',
};

/** A temp project: FIXTURE_ENDPOINTS (or `endpoints`) written out, plus copies of `folders` (schemas, environments). */
export async function fixtureProject(
  endpoints: Readonly<Record<string, unknown>> = FIXTURE_ENDPOINTS,
  folders: readonly string[] = ['schemas', 'environments'],
): Promise<TempProject> {
  const project = await copyProject(folders);
  for (const [file, content] of Object.entries(endpoints)) {
    const target = path.join(project.root, 'endpoints', file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
  return project;
}

/**
 * A throwaway copy of Wharf itself (the build scripts' tests): `entries` (folders and files of this
 * checkout) copied, node_modules linked to this checkout's; with `withoutPackages`, each package is
 * linked on its own and those are left out (a build that needed one of them fails).
 */
export async function copyWharf(entries: readonly string[], withoutPackages: readonly string[] = []): Promise<string> {
  const copy = await mkdtemp(path.join(tmpdir(), 'wharf-copy-'));
  for (const entry of entries) await cp(path.join(REPO_ROOT, entry), path.join(copy, entry), { recursive: true });
  const modules = path.join(REPO_ROOT, 'node_modules');
  if (withoutPackages.length === 0) {
    await symlink(modules, path.join(copy, 'node_modules'));
    return copy;
  }
  await mkdir(path.join(copy, 'node_modules'));
  for (const name of await readdir(modules)) {
    if (name !== '.bin' && !withoutPackages.includes(name)) await symlink(path.join(modules, name), path.join(copy, 'node_modules', name));
  }
  return copy;
}

