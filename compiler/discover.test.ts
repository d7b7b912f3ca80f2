import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discover } from './discover.js';

let root: string;

async function touch(rel: string, content = '{}') {
  await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
  await writeFile(path.join(root, rel), content);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'wharf-discover-'));
  for (const f of [
    'endpoints/SQL/Products/entity.json',
    'endpoints/SQL/Inventory/Stock/entity.json',
    'endpoints/SQL/WMS/Inbound/StagingBins/entity.json',
    'endpoints/Proxy/Weather/entity.json',
    'endpoints/Static/Ref/Countries/entity.json',
    'endpoints/Webhooks/Hooks/Stripe/entity.json',
    'endpoints/Files/Docs/entity.json',
    'endpoints/sql/Lower/entity.json',
    'endpoints/Misc/Thing/entity.json',
    'endpoints/SQL/entity.json',
    'endpoints/SQL/.hidden/X/entity.json',
  ]) {
    await touch(f);
  }
  await touch('endpoints/Static/Ref/Countries/countries.json', '[]');
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe('discover', () => {
  it('finds endpoints with their type folder, namespace folders and name, sorted', async () => {
    const { entities } = await discover(root);
    expect(entities.map((e) => [e.file, e.typeFolder, e.folders.join('/'), e.name])).toEqual([
      ['endpoints/Files/Docs/entity.json', 'Files', '', 'Docs'],
      ['endpoints/Proxy/Weather/entity.json', 'Proxy', '', 'Weather'],
      ['endpoints/SQL/Inventory/Stock/entity.json', 'SQL', 'Inventory', 'Stock'],
      ['endpoints/SQL/Products/entity.json', 'SQL', '', 'Products'],
      ['endpoints/SQL/WMS/Inbound/StagingBins/entity.json', 'SQL', 'WMS/Inbound', 'StagingBins'],
      ['endpoints/Static/Ref/Countries/entity.json', 'Static', 'Ref', 'Countries'],
      ['endpoints/Webhooks/Hooks/Stripe/entity.json', 'Webhooks', 'Hooks', 'Stripe'],
    ]);
    expect(entities[0]?.absolutePath).toBe(path.join(root, 'endpoints/Files/Docs/entity.json'));
  });

  it('warns about unknown type folders (with a case hint) and misplaced files', async () => {
    const { diagnostics } = await discover(root);
    expect(diagnostics.map((d) => [d.file, d.code, d.severity, d.message, d.hint])).toEqual([
      [
        'endpoints/Misc',
        'unknown-type-folder',
        'warning',
        "Folder 'Misc' is not an endpoint type folder; its files are ignored",
        'Type folders are SQL, Proxy, Static, Files, Webhooks.',
      ],
      [
        'endpoints/SQL/entity.json',
        'misplaced-entity',
        'warning',
        'entity.json directly inside a type folder has no endpoint name; it is ignored',
        'Move it to endpoints/SQL/<Name>/entity.json.',
      ],
      [
        'endpoints/sql',
        'unknown-type-folder',
        'warning',
        "Folder 'sql' is not an endpoint type folder; its files are ignored",
        "Did you mean 'SQL'? Type folders are case-sensitive.",
      ],
    ]);
  });

  it('returns nothing for a project without endpoints/', async () => {
    expect(await discover(path.join(root, 'nowhere'))).toEqual({ entities: [], diagnostics: [] });
  });
});
