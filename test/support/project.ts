/** A throwaway copy of this project's sources (endpoints, schemas, environments) for CLI tests. */
import { cp, mkdtemp, rm } from 'node:fs/promises';
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
