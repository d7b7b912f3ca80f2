import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildKey } from './build-cache.js';
import { hashSources, SOURCE_FOLDERS } from './source-hash.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'wharf-build-key-'));
  const files: Record<string, string> = {
    'endpoints/SQL/Area/Items/entity.json': '{"DatabaseObjectName":"Items"}\n',
    'endpoints/database.snapshot.json': '{}\n',
    'schemas/entity.schema.json': '{"type":"object"}\n',
    'docs/index.md': '# Docs\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('build key', () => {
  it.each([false, true])('gives the source hash of the sources it read (docs: %s), so compile need not read them again', async (docs) => {
    const { key, sourceHash } = await buildKey(root, { docs });
    expect(sourceHash).toBe(await hashSources(root, SOURCE_FOLDERS));
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toBe(sourceHash);
  });

  it('follows a change of any source, and of docs only when they are read', async () => {
    const before = { plain: await buildKey(root, { docs: false }), docs: await buildKey(root, { docs: true }) };
    await writeFile(path.join(root, 'docs/index.md'), '# Changed\n');
    expect(await buildKey(root, { docs: false })).toEqual(before.plain);
    expect((await buildKey(root, { docs: true })).key).not.toBe(before.docs.key);
    await writeFile(path.join(root, 'endpoints/SQL/Area/Items/entity.json'), '{"DatabaseObjectName":"Other"}\n');
    const after = await buildKey(root, { docs: false });
    expect(after.key).not.toBe(before.plain.key);
    expect(after.sourceHash).toBe(await hashSources(root, SOURCE_FOLDERS));
    expect(after.sourceHash).not.toBe(before.plain.sourceHash);
  });
});
