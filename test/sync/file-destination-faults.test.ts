/**
 * File destination against a hostile or failing folder (real file system, no mocks): a folder on
 * the way that is a symbolic link out of the project, a link planted at the temporary file's
 * (predictable) name, and a write that fails after the temporary file exists. Each delivery must
 * fail (so the batch is retried or dead-lettered, never marked delivered), write nothing outside
 * the project and leave no temporary file behind.
 */
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Batch } from '../../runtime/sync/destinations/batch.js';
import { createFileDestination } from '../../runtime/sync/destinations/file.js';

const batch: Batch = { environment: 'prod', object: 'Products', type: 'Diff', fromVersion: 0, toVersion: 2, records: [{ $operation: 'I', $version: 2, Id: 1 }] };
let root: string;
let outside: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'wharf-sync-file-root-'));
  outside = await mkdtemp(path.join(tmpdir(), 'wharf-sync-file-outside-'));
});

describe('file destination faults', () => {
  it('a folder of the path that is a symbolic link out of the project: refused, nothing written outside', async () => {
    await symlink(outside, path.join(root, 'out'));
    const destination = createFileDestination({ type: 'File', key: 'f', path: 'out/{object}/{version}.json' }, root);
    await expect(destination.deliver(batch)).rejects.toThrow('file destination f: path leaves the project folder through a symbolic link');
    expect(await readdir(outside)).toEqual([]);
  });

  it('a link planted at the temporary file name is not written through', async () => {
    await mkdir(path.join(root, 'out'));
    const victim = path.join(outside, 'victim.txt');
    await writeFile(victim, 'keep me');
    await symlink(victim, path.join(root, 'out', `000000000002.json.${process.pid}.1.tmp`));
    const destination = createFileDestination({ type: 'File', key: 'f', path: 'out/{version}.json' }, root);
    await expect(destination.deliver(batch)).rejects.toThrow(/EEXIST/);
    expect(await readFile(victim, 'utf8')).toBe('keep me');
  });

  it('a write that fails after the temporary file exists: the delivery fails and no temporary file is left', async () => {
    // The target name is taken by a folder holding a file: the rename cannot replace it.
    await mkdir(path.join(root, 'out', '000000000002.json'), { recursive: true });
    await writeFile(path.join(root, 'out', '000000000002.json', 'x'), 'x');
    const destination = createFileDestination({ type: 'File', key: 'f', path: 'out/{version}.json' }, root);
    await expect(destination.deliver(batch)).rejects.toThrow();
    expect(await readdir(path.join(root, 'out'))).toEqual(['000000000002.json']);
  });

  it('a folder whose name starts with two dots is inside the project', async () => {
    const destination = createFileDestination({ type: 'File', key: 'f', path: '..out/{version}.json' }, root);
    await destination.deliver(batch);
    expect(JSON.parse(await readFile(path.join(root, '..out', '000000000002.json'), 'utf8'))).toMatchObject({ version: 2, count: 1 });
  });
});
