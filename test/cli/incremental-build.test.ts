/**
 * The incremental build (compiler/endpoint-analysis.ts, compiler/build-cache.ts): an unchanged
 * tree skips the compile; a change re-analyses only the entities whose key changed (plus those
 * that read other entities) and must give exactly the bytes and diagnostics of a full build of the
 * same sources in another folder with no cache. In process through runBuild, on our own fixture tree.
 */
import { cp, mkdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild, runCheck, type Printer } from '../../compiler/cli/build-command.js';
import { listFiles } from '../../compiler/output-tree.js';
import { fixtureProject, type TempProject } from '../support/project.js';

let project: TempProject;
let fresh: TempProject;

beforeAll(async () => {
  project = await fixtureProject();
  fresh = await fixtureProject();
});
afterAll(async () => {
  await project?.remove();
  await fresh?.remove();
});

async function tree(root: string): Promise<Record<string, string>> {
  const dir = path.join(root, 'generated');
  const out: Record<string, string> = {};
  for (const rel of await listFiles(dir)) out[rel] = (await readFile(path.join(dir, rel))).toString('base64');
  return out;
}

interface Built {
  readonly ok: boolean;
  readonly cached: boolean;
  /** Entity files analysed in this build (null for the no-op path). */
  readonly analysed: number | null;
  /** Every printed diagnostic line, without the closing summary line. */
  readonly diagnostics: string[];
  readonly line: string;
}

async function build(root: string): Promise<Built> {
  const out: string[] = [];
  const err: string[] = [];
  const print: Printer = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const outcome = await runBuild(root, print, false);
  const line = out.at(-1) ?? err.at(-1) ?? '';
  return {
    ok: outcome.outputs !== null,
    cached: 'cached' in outcome,
    analysed: 'analysed' in outcome ? outcome.analysed : null,
    diagnostics: err.filter((l) => !l.startsWith('Build failed')),
    line,
  };
}

/** A full build of the same sources in another folder, with no cache: the reference. */
async function freshBuild(): Promise<{ files: Record<string, string>; built: Built }> {
  for (const folder of ['endpoints', 'environments', 'schemas', 'generated', '.wharf']) await rm(path.join(fresh.root, folder), { recursive: true, force: true });
  for (const folder of ['endpoints', 'environments', 'schemas']) await cp(path.join(project.root, folder), path.join(fresh.root, folder), { recursive: true });
  const built = await build(fresh.root);
  expect(built.analysed).toBe(built.ok ? await entityCount(fresh.root) : built.analysed);
  return { files: await tree(fresh.root), built };
}

async function entityCount(root: string): Promise<number> {
  return (await listFiles(path.join(root, 'endpoints'))).filter((f) => f.endsWith('/entity.json')).length;
}

const at = (rel: string): string => path.join(project.root, 'endpoints', rel);
async function edit(rel: string, from: string, to: string): Promise<void> {
  const text = await readFile(at(rel), 'utf8');
  expect(text).toContain(from);
  await writeFile(at(rel), text.replace(from, to));
}
/** Renames Categories' Name column to a new alias each time (a change to a cached entity). */
let labels = 0;
async function relabel(): Promise<void> {
  const rel = 'SQL/Inventory/Categories/entity.json';
  await writeFile(at(rel), (await readFile(at(rel), 'utf8')).replace(/"Name;\w+"/, `"Name;Label${++labels}"`));
}
async function editSchema(from: string, to: string): Promise<void> {
  const file = path.join(project.root, 'schemas/sql.schema.json');
  const text = await readFile(file, 'utf8');
  expect(text).toContain(from);
  await writeFile(file, text.replace(from, to));
}
async function policy(blockedIpRanges: string[]): Promise<void> {
  await writeFile(path.join(project.root, 'environments/network-access-policy.json'), JSON.stringify({ blockedIpRanges }));
}
async function add(rel: string, content: unknown): Promise<void> {
  await mkdir(path.dirname(at(rel)), { recursive: true });
  await writeFile(at(rel), `${JSON.stringify(content, null, 2)}\n`);
}

// SQL/Inventory/Products has Relationships (it reads its target): it is analysed on every build.
const ALWAYS = 1;

describe('incremental build', () => {
  it('builds, then an unchanged tree is not compiled again and keeps identical bytes', async () => {
    const first = await build(project.root);
    expect(first).toMatchObject({ ok: true, cached: false, analysed: 4 });
    const bytes = await tree(project.root);
    const again = await build(project.root);
    expect(again.cached).toBe(true);
    expect(again.line).toMatch(/^Compiled 4 endpoints into generated\/ in \d+ ms \(unchanged since the last build: 0 file\(s\) written\)\.$/);
    expect(await tree(project.root)).toEqual(bytes);
    expect(bytes).toEqual((await freshBuild()).files);
  });

  // 'all': the network policy is an input of every entity's key
  const changes: Array<[string, { change: () => Promise<unknown>; analysed: number | 'all'; warns?: RegExp; shows?: [string, string] }]> = [
    ['a changed entity', { change: () => edit('SQL/Inventory/Categories/entity.json', '"Name"', '"Name;Title"'), analysed: 1 + ALWAYS }],
    ['an added entity', { change: () => add('SQL/Sales/Orders/entity.json', { DatabaseObjectName: 'Orders', PrimaryKey: 'Id', AllowedColumns: ['Id', 'Total'] }), analysed: 1 + ALWAYS }],
    ['a renamed entity folder', { change: () => rename(at('Proxy/Weather'), at('Proxy/Forecast')), analysed: 1 + ALWAYS }],
    ['a moved entity (another namespace)', { change: () => rename(at('SQL/Sales'), at('SQL/Billing')), analysed: 1 + ALWAYS }],
    ['a removed entity', { change: () => rm(at('SQL/Billing'), { recursive: true }), analysed: ALWAYS }],
    ['a changed Static content file', { change: () => writeFile(at('Static/Reference/Units/units.csv'), 'code,name\ng,Gram\n'), analysed: 1 + ALWAYS }],
    ['a change to the target of a relationship', { change: () => edit('SQL/Inventory/Categories/entity.json', '"Name;Title"', '"Name;Label"'), analysed: 1 + ALWAYS }],
    [
      'a change that adds a warning',
      { change: () => edit('SQL/Inventory/Categories/entity.json', '"PrimaryKey"', '"FunctionParameters": [{ "Name": "p", "SqlType": "int", "Source": "Query" }],\n  "PrimaryKey"'), analysed: 1 + ALWAYS, warns: /function-parameters-unused/ },
    ],
    [
      'a changed schema description (the config types)',
      { change: () => editSchema('Database schema of the object.', 'Database schema (owner) of the object.'), analysed: ALWAYS, shows: ['types/config.ts', '(owner)'] },
    ],
    ['a network policy that blocks the proxy', { change: () => policy(['127.0.0.0/8']), analysed: 'all', warns: /url-blocked/ }],
    ['a network policy that blocks nothing', { change: () => policy([]), analysed: 'all' }],
  ];
  it.each(changes)('%s rebuilds only what changed, to the bytes and diagnostics of a full build', async (_name, { change, analysed, warns, shows }) => {
    await change();
    const built = await build(project.root);
    expect(built).toMatchObject({ ok: true, cached: false, analysed: analysed === 'all' ? await entityCount(project.root) : analysed });
    const reference = await freshBuild();
    expect(await tree(project.root)).toEqual(reference.files);
    expect(built.diagnostics).toEqual(reference.built.diagnostics);
    if (warns) expect(built.diagnostics.join('\n')).toMatch(warns);
    if (shows) expect(Buffer.from(reference.files[shows[0]] ?? '', 'base64').toString()).toContain(shows[1]);
    expect((await build(project.root)).cached).toBe(true);
  });

  const failures: Array<[string, { change: () => Promise<unknown>; undo: () => Promise<unknown>; code: string }]> = [
    [
      'an invalid entity',
      {
        change: () => edit('SQL/Inventory/Categories/entity.json', '"DatabaseSchema": "inventory"', '"DatabaseSchema": 5'),
        undo: () => edit('SQL/Inventory/Categories/entity.json', '"DatabaseSchema": 5', '"DatabaseSchema": "inventory"'),
        code: '/DatabaseSchema',
      },
    ],
    [
      'an entity whose route collides with an unchanged one',
      {
        change: () => add('Static/Inventory/Categories/entity.json', { ContentFile: 'c.json' }),
        undo: () => rm(at('Static/Inventory'), { recursive: true }),
        code: 'duplicate-route',
      },
    ],
    [
      'a relationship whose unchanged target loses the column',
      {
        change: () => edit('SQL/Inventory/Categories/entity.json', '    "CategoryId",\n', '    "Code",\n'),
        undo: () => edit('SQL/Inventory/Categories/entity.json', '    "Code",\n', '    "CategoryId",\n'),
        code: 'relationship-column',
      },
    ],
  ];
  it.each(failures)('%s fails like a full build and writes nothing; undone, it builds again', async (_name, { change, undo, code }) => {
    const before = await tree(project.root);
    await change();
    const built = await build(project.root);
    expect(built.ok).toBe(false);
    const reference = await freshBuild();
    expect(reference.built.ok).toBe(false);
    expect(built.diagnostics).toEqual(reference.built.diagnostics);
    expect(built.diagnostics.join('\n')).toContain(code);
    expect(await tree(project.root)).toEqual(before);
    await undo();
    expect((await build(project.root)).ok).toBe(true); // the tree of the last good build again: may be the no-op path

    expect(await tree(project.root)).toEqual((await freshBuild()).files);
  });

  const spoiled: Array<[string, (file: string) => Promise<void>]> = [
    ['corrupted', (file) => writeFile(file, '{"version":1,"tool":')],
    ['of another version', async (file) => writeFile(file, (await readFile(file, 'utf8')).replace('{"version":1,', '{"version":0,'))],
    ['of another tool', async (file) => writeFile(file, (await readFile(file, 'utf8')).replace(/"tool":"[0-9a-f]+"/, '"tool":"0"'))],
  ];
  it.each(spoiled)('an entity cache %s is ignored: a full analysis', async (_name, spoil) => {
    await spoil(path.join(project.root, '.wharf/entities.json'));
    await relabel();
    const built = await build(project.root);
    expect(built).toMatchObject({ ok: true, analysed: await entityCount(project.root) });
    expect(await tree(project.root)).toEqual((await freshBuild()).files);
  });

  const spoiledTree: Array<[string, string]> = [
    ['corrupted', '{"version":3,'],
    ['of another version', '{"version":2,"key":"k","endpoints":4,"diagnostics":[],"outputs":{},"stats":{}}'],
    ['with fields of the wrong shape', '{"version":3,"key":"k","endpoints":4,"diagnostics":[],"outputs":null,"stats":7}'],
  ];
  it.each(spoiledTree)('a whole-tree cache %s is ignored: the build compiles', async (_name, text) => {
    await writeFile(path.join(project.root, '.wharf/build-cache.json'), text);
    expect(await build(project.root)).toMatchObject({ ok: true, cached: false });
    expect(await tree(project.root)).toEqual((await freshBuild()).files);
    expect((await build(project.root)).cached).toBe(true);
  });

  it('check never trusts the caches: output a build made from a tampered record fails check', async () => {
    const file = path.join(project.root, '.wharf/entities.json');
    const data = JSON.parse(await readFile(file, 'utf8')) as { records: Record<string, { model: { displayName: string } }> };
    data.records['endpoints/SQL/Inventory/Categories/entity.json']!.model.displayName = 'Tampered';
    await writeFile(file, JSON.stringify(data));
    await unlink(path.join(project.root, 'generated/openapi.json')); // past the no-op path: a compile that reuses the record
    expect((await build(project.root)).ok).toBe(true);
    expect(await readFile(path.join(project.root, 'generated/openapi.json'), 'utf8')).toContain('Tampered');
    const lines: string[] = [];
    expect(await runCheck(project.root, { out: (l) => lines.push(l), err: (l) => lines.push(l) }, false)).toBe(1);
    expect(lines).toContain('generated/openapi.json: differs from a fresh build');
    await rm(path.join(project.root, '.wharf'), { recursive: true });
    expect(await build(project.root)).toMatchObject({ ok: true, analysed: await entityCount(project.root) });
    expect(await tree(project.root)).toEqual((await freshBuild()).files);
  });

  const damages: Array<[string, (dir: string) => Promise<void>]> = [
    ['a deleted output', (dir) => unlink(path.join(dir, 'openapi.json'))],
    ['a hand-edited output', async (dir) => writeFile(path.join(dir, 'manifest.json'), '{}')],
    ['an extra file', (dir) => writeFile(path.join(dir, 'stray.txt'), 'x')],
  ];
  it.each(damages)('%s in generated/ makes a build that restores it', async (_name, damage) => {
    const before = await tree(project.root);
    await damage(path.join(project.root, 'generated'));
    expect((await build(project.root)).cached).toBe(false);
    expect(await tree(project.root)).toEqual(before);
  });
});

describe('the bytes buildKey read are the bytes compiled', () => {
  it('an entity.json given in sourceBytes is compiled from those bytes, not read again from disk', async () => {
    const { compile } = await import('../../compiler/pipeline.js');
    const onDisk = await compile({ root: project.root, docs: false, consoleUi: false });
    expect(onDisk.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const [file] = (await listFiles(path.join(project.root, 'endpoints'))).filter((f) => f.endsWith('entity.json'));
    const absolute = path.join(project.root, 'endpoints', file!);
    // what the key was made of differs from the disk now: the compile must see the key's bytes
    const given = await compile({ root: project.root, docs: false, consoleUi: false, sourceBytes: new Map([[absolute, Buffer.from('{ not json')]]) });
    expect(given.outputs).toBeNull();
    expect(given.diagnostics.some((d) => d.severity === 'error' && d.file === `endpoints/${file}`)).toBe(true);
  });
});
